import { sanitize, sanitizeOutput } from "../../lib/render.ts";
import { overstrike, settleReturns } from "../../lib/text/overstrike.ts";
import type { LoopState } from "./loop-state.ts";
import type { ReplSession } from "./session.ts";
import type { Theme } from "./theme.ts";

/** Lines of a `!cmd`'s output shown as it runs; the model gets all of it (within the tool's limit). */
const SHELL_LIVE_LINES = 40;

type Deps = { state: LoopState; session: ReplSession; theme: Theme; print: (text: string) => void; render: () => void };

/**
 * `!cmd`: the user's own command, run in the workspace (esc stops it); its first lines show as it
 * runs, and its output goes to the model with the next prompt.
 */
export async function runUserCommand(deps: Deps, commandLine: string): Promise<void> {
  const { state, session, theme, print, render } = deps;
  const command = (state.command = new AbortController());
  state.activity = `running ${commandLine}`;
  render();
  let shown = 0;
  // Output comes in chunks that need not end at a line's end: a line is printed once it is whole
  // (blank ones too), and one redrawn with `\r` (a progress bar) as the terminal would leave it.
  let partial = "";
  const show = (line: string) => {
    if (shown++ < SHELL_LIVE_LINES) print(theme.dim(`    ${overstrike(line)}`));
  };
  try {
    const ran = await session.runShell(
      commandLine,
      command.signal,
      (chunk) => {
        const pieces = (partial + sanitizeOutput(chunk)).split("\n");
        partial = settleReturns(pieces.pop()!);
        for (const line of pieces) show(line);
      },
      (message) => print(theme.warn(`note: ${sanitize(message)}`)),
    );
    if (overstrike(partial)) show(partial);
    if (ran.refused) return print(theme.error(ran.refused));
    if (shown > SHELL_LIVE_LINES) print(theme.dim(`    … ${shown - SHELL_LIVE_LINES} more lines (the model gets the output with your next prompt)`));
    else print(theme.dim("  (the output goes with your next prompt)"));
  } finally {
    state.command = undefined;
    state.activity = undefined;
    render();
  }
}
