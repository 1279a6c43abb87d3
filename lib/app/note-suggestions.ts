import type { ModelMessage } from "ai";
import type { GenerateRequest } from "../agent/generate.ts";
import type { Runtime } from "../agent/runtime.ts";
import { MEMORY_KINDS, openInbox, parseSuggestions, rememberNote, suggestionRequest, type AddResult, type MemoryStore, type NoteDraft } from "../memory/index.ts";
import { COMPACT_SUMMARY_INTRO, transcriptForSummary } from "../prune/compact-summary.ts";
import type { DigestedTool } from "../prune/digest.ts";
import type { LiveSession } from "../sessions/live-session.ts";
import { checkSpend, formatUsd } from "../sessions/pricing.ts";
import type { UndoJournal } from "../sessions/undo/journal.ts";

/** Steps (model calls) since the last suggestions that make a session worth a suggestion call even when it changed no file. */
export const SUGGEST_AFTER_STEPS = 5;
/** The new part of the session, as text, is cut to this many characters for the call (the newest kept). */
const SUGGESTION_TRANSCRIPT_MAX_CHARS = 60_000;

export type NoteSuggestionDeps = {
  live: () => LiveSession;
  undo: () => UndoJournal;
  memory: () => MemoryStore | undefined;
  runtime: () => Runtime;
  tools: () => readonly DigestedTool[];
  /** One request outside a turn, its tokens booked in the session (they count toward the spend ceiling). */
  ask: (request: GenerateRequest, signal: AbortSignal, onRetry?: (notice: string) => void) => Promise<string>;
};

/** What a suggestion call came to: notes to show, nothing (and, when it was not made, why), or a failed call. */
export type Suggested = { type: "notes"; notes: NoteDraft[] } | { type: "none"; why?: string } | { type: "stopped" } | { type: "failed"; message: string };

/**
 * Memory that suggests itself (docs/project-memory.md): at a session's end, and before `/compact`,
 * one model call over what is new since the last suggestions proposes notes for a person to keep.
 * Due only when that part changed a file or took SUGGEST_AFTER_STEPS steps; never with
 * `--no-memory`, nor once the session is at its spend ceiling. Nothing here writes a note
 * without being asked: `keepNote` writes one a person accepted, `suggestToInbox` puts them where
 * `shiro memory inbox` lists them.
 */
export function createNoteSuggestions(deps: NoteSuggestionDeps) {
  /** The history as it stood when the session opened or the last call was made: what is older is not new. */
  let seen: readonly ModelMessage[] = [];

  /** The messages added since `seen`: after the longest common start (a /undo or /rewind shortens it; a /compact summary is not new). */
  const newPart = (): ModelMessage[] => {
    const history = deps.live().history;
    let common = 0;
    while (common < seen.length && common < history.length && (seen[common] === history[common] || JSON.stringify(seen[common]) === JSON.stringify(history[common]))) common++;
    const fresh = history.slice(common);
    const first = fresh[0];
    return first?.role === "user" && typeof first.content === "string" && first.content.startsWith(COMPACT_SUMMARY_INTRO) ? fresh.slice(1) : fresh;
  };

  /** Whether the new part changed a file (the undo journal's turns that began in it) or took enough steps. */
  const due = (fresh: readonly ModelMessage[]): boolean => {
    const from = deps.live().history.length - fresh.length;
    const changed = deps.undo().entries().some((entry) => entry.type === "turn" && entry.historyLength >= from - 1 && entry.files.length > 0 && !entry.filesUndone);
    return changed || fresh.filter((message) => message.role === "assistant").length >= SUGGEST_AFTER_STEPS;
  };

  /** The call, when memory is on, the new part is worth it and the spend ceiling allows; the mark moves once it is made. */
  async function suggest(signal: AbortSignal, onRetry?: (notice: string) => void): Promise<Suggested> {
    const memory = deps.memory();
    if (!memory) return { type: "none" };
    const fresh = newPart();
    if (!due(fresh)) return { type: "none" };
    const max = deps.runtime().settings.maxSpendUsd;
    const cost = deps.live().totals().costUsd;
    if (checkSpend(cost, max) === "over") return { type: "none", why: `no notes were suggested: this session has cost ${formatUsd(cost)}, at or past its ${formatUsd(max)} limit` };
    const { entries } = await memory.read();
    const transcript = transcriptForSummary(fresh, { maxTranscriptChars: SUGGESTION_TRANSCRIPT_MAX_CHARS, tools: deps.tools() });
    seen = [...deps.live().history];
    let reply: string;
    try {
      reply = await deps.ask(suggestionRequest(transcript, entries), signal, onRetry);
    } catch (error) {
      if (signal.aborted) return { type: "stopped" };
      return { type: "failed", message: error instanceof Error ? error.message : String(error) };
    }
    const waiting = (await openInbox({ home: deps.runtime().home, projectRoot: memory.projectRoot }).read()).items;
    const notes = parseSuggestions(reply, (await memory.read()).entries, waiting);
    return notes.length > 0 ? { type: "notes", notes } : { type: "none" };
  }

  return {
    /** A session was opened (new, resumed, /clear): what it holds already is not new. */
    opened(history: readonly ModelMessage[]): void {
      seen = [...history];
    },
    /** Whether a suggestion call would be made now (memory on, and the new part worth it); asks nothing. */
    suggestionsDue: (): boolean => deps.memory() !== undefined && due(newPart()),
    /** The suggestion call (see above), for the loop to show the notes one by one. */
    suggestNotes: suggest,
    /** Writes a suggested note a person accepted (perhaps edited), by `remember`'s rules: a duplicate, an over-long note or a full store is refused with why. */
    keepNote: (note: NoteDraft): Promise<AddResult> => rememberNote(deps.memory()!, note),
    /**
     * The suggestion call, its notes put in the project's inbox (`shiro memory inbox`): what to
     * say about it, or undefined when no call was due.
     */
    async suggestToInbox(signal: AbortSignal, onRetry?: (notice: string) => void): Promise<string | undefined> {
      const outcome = await suggest(signal, onRetry);
      if (outcome.type === "failed") return `no notes were suggested: ${outcome.message}`;
      if (outcome.type === "stopped") return undefined;
      if (outcome.type === "none") return outcome.why;
      const inbox = openInbox({ home: deps.runtime().home, projectRoot: deps.memory()!.projectRoot });
      const { added, notice } = await inbox.add(outcome.notes, deps.live().id);
      const said = added === 0 ? undefined : `${added === 1 ? "1 suggested note" : `${added} suggested notes`} for project memory in the inbox: shiro memory inbox lists ${added === 1 ? "it" : "them"}`;
      return [notice, said].filter(Boolean).join("\n") || undefined;
    },
  };
}

/** A suggested note as a person edited it: a leading `(kind)` with a known kind changes the kind; otherwise the whole line is the text. Pure. */
export function editedNote(line: string, kind: NoteDraft["kind"]): NoteDraft {
  const match = /^\s*\(\s*([a-z]+)\s*\)\s*(.*)$/i.exec(line);
  const named = match?.[1]?.toLowerCase();
  return match && (MEMORY_KINDS as readonly string[]).includes(named!) ? { kind: named as NoteDraft["kind"], text: match[2]! } : { kind, text: line };
}
