import { MEMORY_KINDS, type MemoryKind, type NoteDraft } from "./schema.ts";

export type ParsedReply = {
  /** Lines in the `(kind) text` shape with a known kind, in order. Not yet checked against the caps. */
  drafts: NoteDraft[];
  /** Lines that looked like notes but could not be used, with why (for the report). */
  skipped: string[];
};

const NOTE_LINE = /^\(\s*([a-z]+)\s*\)\s*(.*)$/i;

/**
 * Reads a compaction reply leniently: blank lines, code fences and prose are ignored; list
 * markers ("- ", "* ", "1. ") are tolerated; an unknown kind
 * is skipped and reported. A `{"kind","text"}` JSON line is accepted too, for a model that
 * answers in JSON anyway. Never throws; "nothing parseable" is `drafts.length === 0`.
 */
export function parseCompactionReply(reply: string): ParsedReply {
  const drafts: NoteDraft[] = [];
  const skipped: string[] = [];
  for (const raw of reply.split(/\r?\n/)) {
    const line = raw
      .trim()
      .replace(/^(?:[-*•]|\d+[.)])\s+/, "")
      .trim();
    if (line === "" || line.startsWith("```")) continue;
    const fromJson = line.startsWith("{") ? jsonNote(line) : undefined;
    const match = fromJson ? undefined : NOTE_LINE.exec(line);
    const kind = fromJson?.kind ?? match?.[1]?.toLowerCase();
    const text = fromJson?.text ?? match?.[2];
    if (kind === undefined || text === undefined) continue; // prose, not a note
    if (!isKind(kind)) {
      skipped.push(`unknown kind: ${clip(line)}`);
      continue;
    }
    drafts.push({ kind, text });
  }
  return { drafts, skipped };
}

function isKind(kind: string): kind is MemoryKind {
  return (MEMORY_KINDS as readonly string[]).includes(kind);
}

function jsonNote(line: string): { kind: string; text: string } | undefined {
  try {
    const value = JSON.parse(line.replace(/,\s*$/, ""));
    return typeof value?.kind === "string" && typeof value?.text === "string" ? { kind: value.kind.toLowerCase(), text: value.text } : undefined;
  } catch {
    return undefined;
  }
}

function clip(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
