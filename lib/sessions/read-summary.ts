import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import type { SessionSummary } from "./schema.ts";
import { parseHeaderLine, parseSession, SESSION_FILE_TAIL, summarize } from "./serialize.ts";

export type SummaryResult =
  | { status: "ok"; summary: SessionSummary }
  | { status: "missing" }
  | { status: "corrupt"; reason: string };

/** A header longer than this is not one shiro wrote; the whole file is read instead. */
const MAX_HEADER_BYTES = 64 * 1024;
const CHUNK_BYTES = 4096;
const NEWLINE = 0x0a;

/**
 * Reads what a listing needs from a session file. Fast path: the first line (the header) and
 * the last three bytes (proof the file is complete), a few kilobytes whatever the session's
 * size. Any file not in shiro's own layout (edited by hand, pretty-printed, damaged) falls back
 * to reading and validating the whole file, so it is either listed correctly or reported.
 * Contract: damage inside the messages of an otherwise complete file is found on load, not here.
 * Never throws.
 */
export function readSessionSummary(path: string): SummaryResult {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { status: "missing" };
    return { status: "corrupt", reason: `unreadable (${(error as Error).message})` };
  }
  try {
    const fast = readHeaderFast(fd);
    if (fast) return { status: "ok", summary: fast };
  } catch {
    // fall through to the full read
  } finally {
    closeSync(fd);
  }
  return readSummarySlow(path);
}

function readHeaderFast(fd: number): SessionSummary | undefined {
  const size = fstatSync(fd).size;
  const tail = Buffer.alloc(SESSION_FILE_TAIL.length);
  if (size < 2 + tail.length) return undefined;
  readSync(fd, tail, 0, tail.length, size - tail.length);
  if (tail.toString("latin1") !== SESSION_FILE_TAIL) return undefined;

  let buffer = Buffer.alloc(CHUNK_BYTES);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (buffer.length >= MAX_HEADER_BYTES) return undefined;
      const bigger = Buffer.alloc(buffer.length * 2);
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, length);
    const newline = buffer.indexOf(NEWLINE, length);
    length += read;
    if (newline !== -1 && newline < length) {
      const line = new TextDecoder("utf-8", { fatal: true }).decode(buffer.subarray(0, newline));
      return parseHeaderLine(line);
    }
    if (read === 0) return undefined;
  }
}

function readSummarySlow(path: string): SummaryResult {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(readFileSync(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { status: "missing" };
    return { status: "corrupt", reason: error instanceof TypeError ? "not valid UTF-8" : `unreadable (${(error as Error).message})` };
  }
  const parsed = parseSession(text);
  return parsed.ok ? { status: "ok", summary: summarize(parsed.record) } : { status: "corrupt", reason: parsed.reason };
}
