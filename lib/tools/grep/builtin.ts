import { looksBinary } from "../../fs/binary.ts";
import { readConfined } from "../../fs/confined-ops.ts";
import { createIgnoreFilter } from "../../fs/ignore-filter.ts";
import { splitLines } from "../../text/lines.ts";
import { walk } from "../../fs/walk.ts";

export type GrepQuery = {
  /** A regular expression, already checked to compile in JavaScript. */
  pattern: string;
  ignoreCase: boolean;
  /** Absolute file or directory to search. */
  target: string;
  targetIsFile: boolean;
  /** Workspace root, where .gitignore rules start. */
  root: string;
  /** Files to search; the others are skipped (include glob, secrets files). */
  accept: (absFile: string) => boolean;
  /** Stop after this many matching lines. */
  limit: number;
  signal: AbortSignal;
};

export type GrepMatch = { file: string; line: number; text: string };

export type GrepResult = { matches: GrepMatch[]; limitReached: boolean };

export type GrepSearch = (query: GrepQuery) => Promise<GrepResult>;

/**
 * Grep without ripgrep: walks the tree with the same ignore rules and order as `rg --sort path`,
 * skips symlinks and binary files (NUL in the first 8 KB), and tests each line (without its "\n")
 * against the pattern. Stops early at the limit or when the signal aborts.
 */
export const searchBuiltin: GrepSearch = async (query) => {
  const regex = new RegExp(query.pattern, query.ignoreCase ? "i" : "");
  const matches: GrepMatch[] = [];
  const files = query.targetIsFile ? [query.target] : filesUnder(query.target, query.root);
  for (const file of files) {
    if (query.signal.aborted) break;
    if (!query.accept(file)) continue;
    let bytes: Uint8Array;
    try {
      // Through the workspace root, link by link (lib/fs/confined.ts): a file swapped for a link
      // leading out, or to a secrets file, after `accept` looked at it is not read.
      const found = readConfined({ root: query.root }, file);
      if (!found.bytes) continue;
      bytes = found.bytes;
    } catch {
      continue; // unreadable or vanished: ripgrep skips these too
    }
    if (looksBinary(bytes)) continue;
    const lines = splitLines(new TextDecoder().decode(bytes));
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!;
      if (!regex.test(text)) continue;
      if (matches.length === query.limit) return { matches, limitReached: true };
      matches.push({ file, line: i + 1, text: text.replace(/\r$/, "") });
    }
  }
  return { matches, limitReached: false };
};

function* filesUnder(dir: string, root: string): Generator<string> {
  for (const entry of walk(dir, createIgnoreFilter(root), Number.POSITIVE_INFINITY, root)) {
    if (entry.kind === "file") yield entry.abs;
  }
}
