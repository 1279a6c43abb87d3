/**
 * The messages between shiro and the runner inside the sandbox (cmd/sandbox-runner.ts): one JSON object
 * per line, on the runner's stdin and stdout. Output bytes travel as base64.
 */

export type ToRunner =
  | { t: "spawn"; id: number; argv: string[]; cwd: string; env: Record<string, string> }
  /** End the child's process group: SIGTERM, then SIGKILL after the grace. Answered by `stopped`. */
  | { t: "stop"; id: number }
  /** shiro no longer wants the child's output (it exited and its pipes were drained). */
  | { t: "release"; id: number };

export type FromRunner =
  | { t: "ready" }
  | { t: "out"; id: number; s: 1 | 2; d: string }
  /** One of the child's pipes reached its end. */
  | { t: "eof"; id: number; s: 1 | 2 }
  | { t: "exit"; id: number; code: number | null; signal: string | null }
  | { t: "stopped"; id: number }
  /** The child could not be started. */
  | { t: "error"; id: number; message: string };

/** The first argument that makes the shiro binary act as the runner (cmd/shiro.ts). */
export const RUNNER_ARG = "__sandbox-runner";
