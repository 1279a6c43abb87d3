import { editedNote } from "../../lib/app/note-suggestions.ts";
import type { NoteDraft } from "../../lib/memory/schema.ts";
import { startSpinner, type LoopState } from "./loop-state.ts";
import type { ReplSession } from "./session.ts";
import type { Theme } from "./theme.ts";

export type NoteReviewDeps = {
  state: LoopState;
  session: ReplSession;
  theme: Theme;
  /** The live area can redraw (the spinner turns). */
  rich: boolean;
  render(): void;
  print(text: string): void;
  /** The loop's one-key question; resolves with the key ("y", "enter", "escape", …). */
  ask(question: string): Promise<string>;
};

const KEYS_HINT = "y keep · n drop · e edit · esc skip the rest";

/**
 * Memory that suggests itself, in the loop (docs/project-memory.md): with config
 * `memorySuggestions` "ask" (the default), the session's suggestion call (lib/app/note-suggestions.ts)
 * and each note it proposes put to the user: y keeps it, n drops it, e edits it on the question's
 * line first (a leading `(kind)` changes its kind), esc drops it and the rest. Nothing is written
 * but what was kept. With "inbox" the notes go to the inbox instead; with "off" nothing is asked of
 * the model. Esc during the call stops only the call (state.command is its own while it runs).
 */
export async function reviewSuggestedNotes(deps: NoteReviewDeps): Promise<void> {
  const { state, session, theme, print } = deps;
  const mode = session.runtime().settings.memorySuggestions;
  if (mode === "off" || !session.suggestionsDue()) return;
  const outer = state.command;
  const call = (state.command = new AbortController());
  const outerActivity = state.activity;
  if (!outer) startSpinner(state, deps.rich, deps.render, "suggesting notes for project memory");
  else state.activity = "suggesting notes for project memory";
  deps.render();
  const retried = (notice: string) => print(theme.warn(notice));
  let outcome: Awaited<ReturnType<ReplSession["suggestNotes"]>>;
  try {
    if (mode === "inbox") {
      const said = await session.suggestToInbox(call.signal, retried);
      if (said) print(theme.dim(said));
      return;
    }
    outcome = await session.suggestNotes(call.signal, retried);
  } finally {
    if (!outer) clearInterval(state.spinner);
    state.command = outer;
    state.activity = outerActivity;
    deps.render();
  }
  if (outcome.type === "stopped") return print(theme.dim("No notes were suggested (stopped)."));
  if (outcome.type === "failed") return print(theme.warn(`No notes were suggested: ${outcome.message}`));
  if (outcome.type === "none") return void (outcome.why && print(theme.dim(outcome.why)));
  const { notes } = outcome;
  print(theme.bold(`${notes.length === 1 ? "1 note" : `${notes.length} notes`} suggested for project memory; nothing is kept unless you say so:`));
  for (const [i, suggested] of notes.entries()) {
    let note: NoteDraft = suggested;
    print(`  ${i + 1}/${notes.length} (${note.kind}) ${note.text}`);
    for (;;) {
      const key = await deps.ask(`keep it? ${KEYS_HINT} `);
      if (key === "escape") return print(theme.dim(`Skipped ${notes.length - i === 1 ? "it" : `the ${notes.length - i} left`}: nothing more was kept.`));
      if (key === "n") {
        print(theme.dim("  dropped"));
        break;
      }
      if (key === "e") {
        const edited = await readLine(deps, "edit the note (enter keeps it, esc goes back)", `(${note.kind}) ${note.text}`);
        if (edited === null) continue;
        note = editedNote(edited, note.kind);
        print(`  ${i + 1}/${notes.length} (${note.kind}) ${note.text}`);
      } else if (key !== "y") continue;
      const kept = await session.keepNote(note);
      print(kept.ok ? theme.dim(`  kept: (${kept.entry.kind}) ${kept.entry.text}`) : theme.warn(`  not kept: ${kept.message}`));
      break;
    }
  }
}

/**
 * At the end of the loop (/exit, ctrl-d): the review above, with keys answering again for its
 * while (the loop is leaving). Not after a signal (SIGTERM, SIGHUP), when nobody may be there.
 */
export async function reviewAtExit(deps: NoteReviewDeps): Promise<void> {
  if (deps.session.runtime().settings.memorySuggestions === "off" || !deps.session.suggestionsDue()) return;
  deps.state.exiting = false;
  try {
    await reviewSuggestedNotes(deps);
  } catch (error) {
    deps.print(deps.theme.error(`No notes were suggested: ${error instanceof Error ? error.message : String(error)}`));
  } finally {
    deps.state.exiting = true;
    deps.state.question = undefined;
  }
}

/** A line read on the question's row, starting from `initial`: the text on enter, null on esc. */
function readLine(deps: NoteReviewDeps, label: string, initial: string): Promise<string | null> {
  const { state } = deps;
  return new Promise((resolve) => {
    const reading: NonNullable<LoopState["question"]> = {
      text: `${label}:`,
      typed: initial,
      answer: (key) => {
        if (state.question === reading) state.question = undefined;
        resolve(key === "enter" ? reading.typed! : null);
      },
    };
    state.question = reading;
    if (!deps.rich) deps.print(`${reading.text} ${initial}`);
    deps.render();
  });
}
