import { existsSync } from "node:fs";
import { STOPPED, type GenerateRequest } from "../agent/generate.ts";
import type { Runtime } from "../agent/runtime.ts";
import { compactMemory, formatNotes, staleMarks, type MemoryStore } from "../memory/index.ts";
import { compactTranscript } from "../prune/compact-summary.ts";
import type { DigestedTool } from "../prune/digest.ts";
import type { LiveSession } from "../sessions/live-session.ts";
import type { UndoJournal } from "../sessions/undo/journal.ts";
import type { createSessionHooks } from "./session-hooks.ts";

export type MemoryCommandDeps = {
  live: () => LiveSession;
  /** The project's notes; undefined with --no-memory. */
  memory: () => MemoryStore | undefined;
  undo: () => UndoJournal;
  runtime: () => Runtime;
  tools: () => readonly DigestedTool[];
  /** One request outside a turn, its tokens booked in the session. */
  ask: (request: GenerateRequest, signal: AbortSignal, onRetry?: (notice: string) => void) => Promise<string>;
  hooks: Pick<ReturnType<typeof createSessionHooks>, "beforeCompact" | "afterCompact">;
  /** A mark in the session's transcript (lib/app/transcript.ts). */
  mark: (text: string) => void;
};

/**
 * What the session does with what it remembers (lib/app/session.ts): `/notes` lists the project's
 * notes, `/memory` merges them, `/compact` replaces the conversation by the model's summary. Each
 * works on the session open at the call.
 */
export function createMemoryCommands(deps: MemoryCommandDeps) {
  const off = "Project memory is off (--no-memory).";
  return {
    /** `/notes`. */
    async notes(): Promise<string> {
      const store = deps.memory();
      if (!store) return off;
      const { entries, notice } = await store.read();
      const now = new Date();
      return [notice, formatNotes(entries, { path: store.path, now, marks: staleMarks(entries, deps.runtime().workspace.root, existsSync, now) })].filter(Boolean).join("\n");
    },
    /** `/memory`: merges the project notes. `onRetry` hears of each wait to send the request again. */
    async memory(signal: AbortSignal, onRetry?: (notice: string) => void): Promise<string> {
      const store = deps.memory();
      if (!store) return off;
      const outcome = await compactMemory({ store, generate: (prompt) => deps.ask({ prompt }, signal, onRetry) });
      // Nothing to merge: someone who typed /memory to see the notes is told where they are.
      const seeThem = outcome.type === "noop" && outcome.notes > 0 ? "/notes lists them." : undefined;
      return [outcome.notice, outcome.message, seeThem].filter(Boolean).join("\n");
    },
    /**
     * `/compact [focus]`: the transcript replaced by the model's summary (`focus`: what the user
     * asked it to keep above all), or kept as it was. `summary` is the summary made, to show.
     * `onRetry` as for memory.
     */
    async compact(signal: AbortSignal, onRetry?: (notice: string) => void, focus = ""): Promise<{ message: string; summary?: string }> {
      const kept = (message: string) => ({ message });
      const live = deps.live();
      const before = live.history.length;
      if (before === 0) return kept("Nothing to compact yet.");
      const refused = await deps.hooks.beforeCompact(focus, signal);
      if (refused) return kept(refused);
      const outcome = await compactTranscript(live.history, (request) => deps.ask(request, signal, onRetry), { tools: deps.tools(), focus });
      if (outcome.type === "failed" && outcome.message === STOPPED) return kept("Stopped: the transcript was kept as it was.");
      if (outcome.type === "failed") return kept(`The summary request failed, so the transcript was kept as it was: ${outcome.message}`);
      if (outcome.type === "unusable") return kept("The model's summary was empty or unusable, so the transcript was kept as it was: /compact again to retry, or /clear to start a new conversation.");
      live.replace(outcome.messages);
      deps.undo().markCompact();
      deps.mark("/compact: the conversation above was replaced, for the model, by its summary");
      await deps.hooks.afterCompact();
      return { summary: outcome.summary, message: `Compacted: ${before} messages replaced by the summary above (/undo cannot go back past this). The task list and project memory are unchanged.` };
    },
  };
}
