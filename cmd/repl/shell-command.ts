import { OUTCOME_MARKS, outcomeOfSummary, paintOutcome, sanitize, sanitizeOutput } from "../../lib/render.ts";
import { overstrike, settleReturns } from "../../lib/text/overstrike.ts";
import { fitRow } from "../../lib/text/wrap.ts";
import { OUTPUT_TAIL_LINES } from "./event-view.ts";
import { startSpinner, type LoopState } from "./loop-state.ts";
import type { ReplSession } from "./session.ts";
import type { Theme } from "./theme.ts";

/** Lines of a running `!cmd`'s output shown live under the transcript, as a model-run command's are. */
const LIVE_LINES = 8;
/** Lines kept in memory while it runs (its whole output is in the transcript file, lib/app/transcript.ts). */
const KEPT_LINES = OUTPUT_TAIL_LINES * 4;
const INDENT = "    ";

type Deps = { state: LoopState; session: ReplSession; theme: Theme; print: (text: string) => void; render: () => void; columns: () => number; rich: boolean };

/**
 * `!cmd`: the user's own command, run in the workspace (esc stops it). Its last lines show live
 * while it runs; once it ends, its last OUTPUT_TAIL_LINES stay after a `… N more lines` count (a
 * test run's summary is at its end), then a line with the mark of how it ended (`✗ exit 1`), as a
 * model-run command's do. Its whole output is in the transcript (ctrl-o) and /last, and goes to
 * the model with the next prompt.
 */
export async function runUserCommand(deps: Deps, commandLine: string): Promise<void> {
  const { state, session, theme, print, render } = deps;
  const command = (state.command = new AbortController());
  startSpinner(state, deps.rich, render, `running ${commandLine}`);
  render();
  // Output comes in chunks that need not end at a line's end: a line is counted once it is whole
  // (blank ones too), and one redrawn with `\r` (a progress bar) as the terminal would leave it.
  const lines: string[] = [];
  let dropped = 0;
  let partial = "";
  const live = () => {
    const width = deps.columns() - 1;
    const shown = [...lines, ...(overstrike(partial) ? [overstrike(partial)] : [])].slice(-LIVE_LINES);
    state.output = shown.map((line) => theme.dim(fitRow(INDENT + line, width)));
    render();
  };
  try {
    const ran = await session.runShell(
      commandLine,
      command.signal,
      (chunk) => {
        const pieces = (partial + sanitizeOutput(chunk)).split("\n");
        partial = settleReturns(pieces.pop()!);
        for (const line of pieces) lines.push(overstrike(line));
        if (lines.length > KEPT_LINES) dropped += lines.splice(0, lines.length - OUTPUT_TAIL_LINES).length;
        live();
      },
      (message) => print(theme.warn(`note: ${sanitize(message)}`)),
    );
    state.output = undefined;
    if (overstrike(partial)) lines.push(overstrike(partial));
    if (ran.refused) return print(theme.error(ran.refused));
    const width = deps.columns() - 1;
    const hidden = lines.length + dropped - OUTPUT_TAIL_LINES;
    const rows = lines.slice(-OUTPUT_TAIL_LINES).map((line) => (line ? theme.dim(fitRow(INDENT + line, width)) : ""));
    if (hidden > 0) rows.unshift(theme.dim(`${INDENT}… ${hidden.toLocaleString("en-US")} more ${hidden === 1 ? "line" : "lines"} · /last shows all`));
    const summary = ran.summary ?? "";
    const outcome = outcomeOfSummary(summary);
    rows.push(paintOutcome(theme, outcome, `  ${OUTCOME_MARKS[outcome]} ${summary ? `${summary} · ` : ""}the output goes with your next prompt`));
    print(rows.join("\n"));
  } finally {
    clearInterval(state.spinner);
    state.output = undefined;
    state.command = undefined;
    state.activity = undefined;
    render();
  }
}
