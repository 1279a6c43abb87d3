import type { SlashName } from "../../lib/prompt/slash-commands.ts";
import { runCommand, type CommandEnv } from "./commands.ts";
import { startSpinner, type LoopState } from "./loop-state.ts";
import { reviewSuggestedNotes } from "./note-review.ts";

export { reviewAtExit } from "./note-review.ts";

export type SlashRunDeps = Omit<CommandEnv, "signal" | "send" | "reviewNotes"> & {
  state: LoopState;
  /** The live area can redraw (the spinner turns). */
  rich: boolean;
  render: () => void;
};

/**
 * A slash command of the table, with its spinner and esc (state.command): "exit", or the prompt a
 * command that is a turn (/init) wants sent, or nothing. A failure is one line, never the loop's end.
 */
export async function runSlash(name: SlashName, args: string, deps: SlashRunDeps): Promise<{ exit: true } | { send?: string }> {
  const { state, render, ...env } = deps;
  const command = (state.command = new AbortController());
  startSpinner(state, deps.rich, render, `/${name}`);
  let send: string | undefined;
  try {
    const reviewNotes = () => reviewSuggestedNotes({ state, session: env.session, theme: env.theme, rich: deps.rich, render, print: env.print, ask: env.ask });
    const outcome = await runCommand(name, args, { ...env, signal: command.signal, send: (prompt) => (send = prompt), reviewNotes });
    if (outcome === "exit") return { exit: true };
  } catch (error) {
    env.print(env.theme.error(`/${name} failed: ${error instanceof Error ? error.message : String(error)}`));
  } finally {
    clearInterval(state.spinner);
    state.command = undefined;
    state.activity = undefined;
  }
  return send !== undefined ? { send } : {};
}

/** Text through the user's pager (`$PAGER`) with the live area out of its way, or printed when there is none. */
export async function pageThrough(
  pager: ((text: string) => Promise<void>) | undefined,
  text: string,
  loop: { state: LoopState; screen: { setLive(rows: undefined): void }; render: () => void; print: (text: string) => void },
): Promise<void> {
  if (!pager) return loop.print(text);
  loop.state.paging = true;
  loop.screen.setLive(undefined);
  try {
    await pager(text);
  } finally {
    loop.state.paging = false;
    loop.render();
  }
}
