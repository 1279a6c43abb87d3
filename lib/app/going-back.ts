import type { Conversation } from "../agent/conversation.ts";
import { withoutAttachments } from "../prompt/attach.ts";
import type { LiveSession } from "../sessions/live-session.ts";
import { lastTurnChanges, sessionChanges, type FileChange } from "../sessions/undo/changes.ts";
import type { UndoJournal } from "../sessions/undo/journal.ts";
import { describeChangedSince, overwritePhrase } from "../sessions/undo/report.ts";
import type { UndoMode } from "../sessions/undo/restore.ts";
import { rewindChoices, rewindQuestion, rewindTo } from "./rewind.ts";
import { undoLatestTurn } from "./undo.ts";

export type GoingBackDeps = {
  /** The session open now (/clear and /resume change it). */
  live: () => LiveSession;
  undo: () => UndoJournal;
  conversation: () => Conversation;
  /** A path as the screen shows it. */
  shown: (path: string) => string;
  /** How the user undoes in this mode: `/undo` or `shiro undo`. */
  undoCommand: string;
  /** Copies the session and goes on in the copy; the line saying so, or undefined when there is nothing to copy. */
  forkNow: () => Promise<string | undefined>;
  /**
   * A mark in the session's transcript (lib/app/transcript.ts) where the conversation went back:
   * the transcript is only appended to, so what was undone or rewound stays in it, above the mark.
   */
  mark?: (text: string) => void;
};

/** The transcript's marks where the conversation or the files went back (what was taken back stays above them). */
const UNDO_MARKS: Record<UndoMode, string> = {
  all: "/undo: the latest turn above was undone (the conversation and the files)",
  conversation: "/undo conversation: the latest turn above was taken out of the conversation; the files stayed",
  files: "/undo files: the latest turn's file changes were undone; the conversation stays",
};
const REWIND_MARKS: Record<UndoMode, string> = {
  all: "rewound to just before prompt {n} (the conversation and the files): the turns above were taken back",
  conversation: "rewound to just before prompt {n} (the conversation only): the turns above were taken back; the files stayed",
  files: "rewound the files to just before prompt {n}; the conversation above stays",
};

/** The session service's ways back (lib/app/session.ts): /undo, /rewind, /fork and /diff, over the undo journal. */
export function createGoingBack(deps: GoingBackDeps) {
  return {
    /**
     * `/undo [files|conversation]`: the latest turn not yet undone goes back (its files, its
     * conversation and task list, or both; lib/app/undo.ts). Files changed since that turn are
     * listed and overwritten only if `confirm` says yes. Returns the lines to print, and the
     * turn's prompt when the conversation went back.
     */
    async undo(mode: UndoMode, confirm: (question: string) => Promise<boolean>): Promise<{ lines: string[]; prompt?: string }> {
      const outcome = await undoLatestTurn({
        journal: deps.undo(),
        history: deps.live().history,
        mode,
        overwrite: (plan, changed) => {
          const { phrase, verb } = overwritePhrase(changed);
          return confirm(`${describeChangedSince(plan, deps.shown)}. ${phrase[0]!.toUpperCase()}${phrase.slice(1)}? y ${verb} · n cancel `);
        },
        restore: (historyLength, todos) => {
          deps.live().replace(deps.live().history.slice(0, historyLength));
          deps.conversation().notebook.replace(todos);
        },
        shown: deps.shown,
        command: deps.undoCommand,
      });
      if (outcome.type === "declined") return { lines: ["Nothing was undone."] };
      if (outcome.type !== "done") return { lines: [outcome.type === "nothing" ? `Nothing to undo: ${outcome.why}.` : `${deps.undoCommand} stops here: ${outcome.why}.`] };
      deps.mark?.(UNDO_MARKS[mode].replace("/undo", deps.undoCommand));
      return { lines: outcome.lines, ...(outcome.prompt !== undefined ? { prompt: withoutAttachments(outcome.prompt) } : {}) };
    },
    /** `/rewind`'s list: this session's prompts, newest first, each with when it was sent and the files its turn changed. */
    rewindChoices: () => rewindChoices(deps.undo(), deps.live().history),
    /**
     * `/rewind`: back to just before prompt `to` (lib/app/rewind.ts) — the conversation and task
     * list, the files, or one half; with `fork`, a copy goes back and this session stays as it was.
     * Files changed outside shiro since are overwritten only if `confirm` says yes.
     */
    async rewind(to: number, mode: UndoMode, confirm: (question: string) => Promise<boolean>, fork = false): Promise<{ lines: string[]; prompt?: string }> {
      const forked = fork ? await deps.forkNow() : undefined;
      if (fork && !forked) return { lines: ["Nothing to fork yet: the session has no messages."] };
      const outcome = await rewindTo({
        journal: deps.undo(),
        history: deps.live().history,
        to,
        mode,
        overwrite: (_plan, changed) => confirm(rewindQuestion(changed, deps.shown)),
        restore: (historyLength, todos, goal) => {
          deps.live().replace(deps.live().history.slice(0, historyLength));
          if (todos) deps.conversation().notebook.replace(todos);
          if (goal) deps.live().setGoal(goal.goal);
        },
        shown: deps.shown,
      });
      const head = forked ? [forked] : [];
      if (outcome.type === "declined") return { lines: [...head, "Nothing was rewound."] };
      if (outcome.type === "nothing") return { lines: [...head, `Nothing to rewind: ${outcome.why}.`] };
      deps.mark?.(REWIND_MARKS[mode].replace("{n}", String(to)));
      return { lines: [...head, ...outcome.lines], prompt: withoutAttachments(outcome.prompt) };
    },
    /** `/fork`: the conversation goes on in a copy (a new id, its undo journal copied); this session stays as it was. */
    fork: async (): Promise<string> => (await deps.forkNow()) ?? "Nothing to fork yet: the session has no messages.",
    /** `/diff` (the last turn that changed files) and `/diff session` (every file the session changed, against its start). */
    diff(scope: "turn" | "session"): { title: string; files: FileChange[] } {
      if (scope === "session") {
        const files = sessionChanges(deps.undo());
        return { title: files.length > 0 ? `What this session changed (${files.length === 1 ? "1 file" : `${files.length} files`}):` : "This session has not changed any file.", files };
      }
      const last = lastTurnChanges(deps.undo());
      if (!last) return { title: "The last turn changed no files (or they were undone).", files: [] };
      const prompt = last.entry.prompt.length > 60 ? last.entry.prompt.slice(0, 59) + "…" : last.entry.prompt;
      return { title: `What the turn ${JSON.stringify(prompt)} changed:`, files: last.files };
    },
  };
}
