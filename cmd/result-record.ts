import { statusOfExitCode, type Outcome } from "../lib/errors.ts";

type Usage = { inputTokens: number; outputTokens: number };

/** What a `shiro -p --json` run's last line says (docs/headless.md); every field has a value, empty when the run never began its turn. */
export type ResultFields = {
  status: Exclude<Outcome, "usage">;
  steps: number;
  usage: Usage;
  costUsd: number | null;
  error: string | null;
  truncated: boolean;
  /** What the turn changed: files (undoable with `shiro undo`) and commands run (not undoable). */
  changes: { files: number; unkept: number; commands: number } | null;
  sessionId: string | null;
  text: string;
  denied: readonly { tool: string; subject?: string; reason: string }[];
  todos: readonly unknown[];
  subagents: { count: number; usage: Usage; costUsd: number | null };
  /** The run's goal (docs/goals.md): null without one. `check` null for a goal without a check; `done` what goal_done said. */
  goal: {
    objective: string;
    met: boolean;
    turns: number;
    maxTurns: number;
    check: { command: string; exitCode: number | null; tail: string } | null;
    done: { summary: string; verification: string } | null;
  } | null;
};

/** A cost as the result record gives it: to a millionth of a cent, without the float noise of adding prices up (0.00019830000000000002). */
const dollars = (usd: number | null) => (usd === null ? null : Math.round(usd * 1e8) / 1e8);

/**
 * The one builder of the result record, as a line. `exitCode` is the run's (EXIT_CODES); the
 * status defaults to the one that code stands for. Kept free of heavy imports: cmd/shiro.ts loads
 * it only when a run fails.
 */
export function resultRecord(exitCode: number, fields: Partial<ResultFields> = {}): string {
  const record: ResultFields & { type: "result"; exitCode: number } = {
    type: "result",
    status: fields.status ?? statusOfExitCode(exitCode),
    exitCode,
    steps: fields.steps ?? 0,
    usage: fields.usage ?? { inputTokens: 0, outputTokens: 0 },
    costUsd: dollars(fields.costUsd ?? null),
    error: fields.error ?? null,
    truncated: fields.truncated ?? false,
    changes: fields.changes ?? null,
    sessionId: fields.sessionId ?? null,
    text: fields.text ?? "",
    denied: fields.denied ?? [],
    todos: fields.todos ?? [],
    subagents: fields.subagents ? { ...fields.subagents, costUsd: dollars(fields.subagents.costUsd) } : { count: 0, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0 },
    goal: fields.goal ?? null,
  };
  return JSON.stringify(record) + "\n";
}

/**
 * The result record of a run that stopped before its turn could begin: a flag, a configuration or
 * a session that could not be used. It has the record's whole shape, empty, so a script reading
 * the last line finds the status and the error there too.
 */
export const emptyResultRecord = (exitCode: number, error: string): string => resultRecord(exitCode, { error });

/** Whether argv asks for --json output (before any `--`, after which words are the prompt's). */
export function asksForJson(argv: string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).includes("--json");
}
