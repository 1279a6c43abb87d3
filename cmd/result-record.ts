/**
 * The result record of a `shiro -p --json` run that stopped before its turn could begin: a flag,
 * a configuration or a session that could not be used. It has the record's whole shape (docs/
 * headless.md), empty, so a script reading the last line finds the status and the error there
 * too. Kept free of imports: cmd/shiro.ts loads it only when a run fails.
 */
export function emptyResultRecord(exitCode: number, error: string): string {
  const status = exitCode === 4 ? "spend-limit" : exitCode === 130 ? "interrupted" : "error";
  return (
    JSON.stringify({
      type: "result",
      status,
      exitCode,
      steps: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      costUsd: null,
      error,
      truncated: false,
      changes: null,
      sessionId: null,
      text: "",
      denied: [],
      todos: [],
      subagents: { count: 0, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0 },
    }) + "\n"
  );
}

/** Whether argv asks for --json output (before any `--`, after which words are the prompt's). */
export function asksForJson(argv: string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).includes("--json");
}
