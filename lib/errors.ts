/**
 * The project's one error class. `code` decides the exit code in cmd/shiro.ts;
 * the message is a single line that tells the reader what to do next.
 */
export type ShiroErrorCode =
  | "usage" // bad flags or arguments → exit 2
  | "config" // missing key, invalid config file → exit 2
  | "state" // a file of shiro's own (memory, sessions) is locked by another process or unreadable → exit 1
  | "provider" // the provider or model failed → exit 1
  | "step-cap" // the turn hit --max-steps → exit 3
  | "spend" // the spend ceiling was reached → exit 4
  | "interrupted"; // SIGINT / abort → exit 130

export class ShiroError extends Error {
  readonly code: ShiroErrorCode;
  constructor(code: ShiroErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ShiroError";
    this.code = code;
  }
}

export const EXIT_CODES: Record<ShiroErrorCode, number> = {
  usage: 2,
  config: 2,
  state: 1,
  provider: 1,
  "step-cap": 3,
  spend: 4,
  interrupted: 130,
};

/** A tool failure the model should read. Thrown inside tools; the loop turns it into a tool error result. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolError";
  }
}
