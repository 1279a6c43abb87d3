import type { Screen } from "./input/screen.ts";
import type { LoopState } from "./loop-state.ts";
import { ALT_SCREEN_OFF, ALT_SCREEN_ON, createPager } from "./pager.ts";
import type { ReplSession } from "./session.ts";
import { pageThrough } from "./slash-run.ts";
import { lastShown, transcriptLines } from "./transcript-text.ts";
import type { LastResult } from "./event-view.ts";

export type PagingDeps = {
  state: LoopState;
  screen: Screen;
  /** The user's `$PAGER`, when set (main.ts runs it with the terminal handed over). */
  pager?: (text: string) => Promise<void>;
  session: () => ReplSession;
  print: (text: string) => void;
  render: () => void;
};

/**
 * Long text for reading, and back: through `$PAGER` when it is set, else shiro's own pager
 * (pager.ts) on a terminal that redraws, else printed. While it is open the loop draws nothing
 * and keeps what the turn writes (state.held), so closing it finds the loop as it was: the screen
 * restored, then anything that came meanwhile, the input and the queue untouched.
 */
export function createPaging(deps: PagingDeps) {
  const { state, screen } = deps;

  async function show(lines: readonly string[], title: string): Promise<void> {
    if (state.paging) return; // one at a time
    const text = lines.join("\n");
    if (deps.pager) return pageThrough(deps.pager, text, { state, screen, render: deps.render, print: deps.print });
    if (screen.mode !== "rich" || !screen.raw) return deps.print(text);
    const raw = screen.raw.bind(screen);
    state.paging = true;
    raw(ALT_SCREEN_ON);
    try {
      await new Promise<void>((resolve) => {
        state.pager = createPager({ lines, title, columns: () => screen.columns(), rows: () => screen.rows?.() ?? 24, write: raw, close: resolve });
        state.pager.draw();
      });
    } finally {
      state.pager = undefined;
      raw(ALT_SCREEN_OFF);
      state.paging = false;
      deps.render(); // the live area again, and the rows held meanwhile
    }
  }

  return {
    show,
    /** ctrl-o and /transcript: the whole session (lib/app/transcript.ts), in the pager. */
    transcript: (): Promise<void> => show(transcriptLines(deps.session().transcript.records()), "transcript"),
    /** `d` at a question whose preview was cut: all of it; the question is there again after. */
    details: (lines: readonly string[]): Promise<void> => show(lines, "the call asked about"),
    /** /last: the newest tool result or `!cmd` run, whole (from the transcript; the screen's copy if it has none). */
    last: (fallback: LastResult | undefined): LastResult | undefined => lastShown(deps.session().transcript.records().records, fallback),
  };
}

export type Paging = ReturnType<typeof createPaging>;
