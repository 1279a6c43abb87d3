import { createIgnoreFilter } from "../../fs/ignore-filter.ts";
import { walk } from "../../fs/walk.ts";
import { matchInWorker } from "./match-worker.ts";

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
  /** Stop after this long, with what was found by then (GrepResult.timedOut). */
  timeLimitMs: number;
  signal: AbortSignal;
};

/** `cut`: the engine kept only the start of a long line (MATCH_TEXT_BYTES). */
export type GrepMatch = { file: string; line: number; text: string; cut?: boolean };

/**
 * `timedOut`: the time limit ended the search; `tooLarge`: files the built-in search skipped for
 * their size (MAX_BUILTIN_FILE_BYTES).
 */
export type GrepResult = { matches: GrepMatch[]; limitReached: boolean; timedOut?: boolean; tooLarge?: number };

export type GrepSearch = (query: GrepQuery) => Promise<GrepResult>;

/** What an engine keeps of a matching line: enough to show, never the whole of a minified file. */
export const MATCH_TEXT_BYTES = 1200;
/** Files the built-in search reads whole; larger ones are skipped, and the result says so. */
export const MAX_BUILTIN_FILE_BYTES = 32 * 1024 * 1024;
/** Files handed to the worker at a time: few enough that a deadline is met between batches too. */
const BATCH = 64;

/**
 * Grep without ripgrep: walks the tree with the same ignore rules and order as `rg --sort path`,
 * skips symlinks and binary files (NUL in the first 8 KB), and tests each line (without its "\n")
 * against the pattern. The files are read and matched in a Worker (match-worker.ts), ended at the
 * time limit: a JavaScript regular expression cannot be interrupted, and `(a|a)*b` spends about
 * 2 s on each line of `a` before the engine gives up. Stops early at the limit or when the signal aborts.
 */
export const searchBuiltin: GrepSearch = async (query) => {
  const matches: GrepMatch[] = [];
  const deadline = Date.now() + query.timeLimitMs;
  let tooLarge = 0;
  let batch: string[] = [];
  const run = async (): Promise<"limit" | "timeout" | "aborted" | "more"> => {
    const files = batch;
    batch = [];
    const left = deadline - Date.now();
    if (left <= 0) return "timeout";
    const found = await matchInWorker({ files, pattern: query.pattern, ignoreCase: query.ignoreCase, room: query.limit + 1 - matches.length, maxBytes: MAX_BUILTIN_FILE_BYTES, keep: MATCH_TEXT_BYTES }, left, query.signal);
    tooLarge += found.tooLarge;
    for (const match of found.matches) {
      if (matches.length === query.limit) return "limit";
      matches.push(match);
    }
    return found.end === "done" ? "more" : found.end;
  };
  const files = query.targetIsFile ? [query.target] : filesUnder(query.target, query.root);
  let end: "limit" | "timeout" | "aborted" | "more" = "more";
  for (const file of files) {
    if (query.signal.aborted || Date.now() > deadline) {
      end = query.signal.aborted ? "aborted" : "timeout";
      break;
    }
    if (!query.accept(file)) continue;
    batch.push(file);
    if (batch.length === BATCH && (end = await run()) !== "more") break;
  }
  if (end === "more" && batch.length > 0) end = await run();
  return { matches, limitReached: end === "limit", ...(end === "timeout" ? { timedOut: true } : {}), ...(tooLarge > 0 ? { tooLarge } : {}) };
};

function* filesUnder(dir: string, root: string): Generator<string> {
  for (const entry of walk(dir, createIgnoreFilter(root), Number.POSITIVE_INFINITY, root)) {
    if (entry.kind === "file") yield entry.abs;
  }
}
