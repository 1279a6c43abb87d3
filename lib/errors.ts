/**
 * How a run ended, and its exit code: the one map both modes (`shiro -p`, the interactive loop)
 * and the `--json` result record use. A turn's own status (events.ts TurnStatus) is one of these.
 */
export const EXIT_CODES = {
  success: 0,
  error: 1, // the provider, a file of shiro's own, or an unexpected error
  usage: 2, // bad flags, arguments or config
  "step-cap": 3, // the turn hit --max-steps
  "spend-limit": 4, // the session's spend ceiling was reached
  "goal-unmet": 5, // a goal's budget (turns, time) ended before it was met (docs/goals.md)
  interrupted: 130, // SIGINT, SIGTERM, SIGHUP
} as const;

export type Outcome = keyof typeof EXIT_CODES;

/** The result record's `status` for a run that ended with `exitCode` before or outside its turn (a usage error is an "error" there). */
export function statusOfExitCode(exitCode: number): Exclude<Outcome, "usage"> {
  const found = (Object.keys(EXIT_CODES) as Outcome[]).find((outcome) => EXIT_CODES[outcome] === exitCode);
  return found === undefined || found === "usage" ? "error" : found;
}

/**
 * The project's one error class. `code` decides the run's outcome (exitCodeOf);
 * the message is a single line that tells the reader what to do next.
 */
export type ShiroErrorCode =
  | "usage" // bad flags or arguments → exit 2
  | "config" // missing key, invalid config file → exit 2
  | "state" // a file of shiro's own (memory, sessions) is locked by another process or unreadable → exit 1
  | "provider" // the provider or model failed → exit 1
  | "spend"; // the spend ceiling was reached → exit 4

export class ShiroError extends Error {
  readonly code: ShiroErrorCode;
  constructor(code: ShiroErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ShiroError";
    this.code = code;
  }
}

const OUTCOME_OF_ERROR: Record<ShiroErrorCode, Outcome> = { usage: "usage", config: "usage", state: "error", provider: "error", spend: "spend-limit" };

/** The exit code a ShiroError ends the run with. */
export const exitCodeOf = (error: ShiroError): number => EXIT_CODES[OUTCOME_OF_ERROR[error.code]];

/** A tool failure the model should read. Thrown inside tools; the loop turns it into a tool error result. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolError";
  }
}
