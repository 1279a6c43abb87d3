import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeStateFileSync } from "../fs/atomic-write.ts";
import { sessionsDir } from "./paths.ts";

/**
 * The session's transcript beside its file: `<sessions>/<id>.transcript.jsonl`, one JSON record a
 * line, only ever appended to. It keeps what the session file does not: every tool call's full
 * input and its full output (a command's whole output as it printed it, not the model's clipped
 * copy), `!cmd` runs, notices, reasoning, and marks where the conversation went back (/rewind,
 * /undo) or was summarised (/compact). The transcript view (ctrl-o, /transcript) and /last read it,
 * after `-c` too; the session's autosave never carries it.
 *
 * A crash can leave at most a torn last line: appends never rewrite what is there, a reader skips
 * a line it cannot parse, and the next append starts on a line of its own.
 */
export type TranscriptRecord =
  /** A prompt as the user typed it (without the files `@path` attached). */
  | { type: "prompt"; text: string; at: string }
  | { type: "answer"; text: string }
  | { type: "reasoning"; text: string }
  /** A tool call with its whole input (long strings capped). */
  | { type: "call"; id: string; tool: string; subject?: string; input: unknown }
  /** How a call ended: its summary, mark and whole output (capped). */
  | { type: "result"; id: string; tool: string; subject?: string; summary: string; outcome: string; output: string; exitCode?: number | null }
  /** `!cmd`: the user's own command, its whole output (capped) and exit code (null: it did not exit on its own). */
  | { type: "shell"; command: string; output: string; exitCode: number | null; at: string }
  /** A line the loop showed about the turn: a retry, an error, a hook, a compaction, a subagent's end. */
  | { type: "notice"; text: string }
  /** Where the conversation changed course: rewound, undone, compacted, or the saved conversation from before the log began. */
  | { type: "mark"; text: string };

/** Characters kept of one text in a record (an output, an input's string, an answer); past it the middle is cut, with a note. */
export const TRANSCRIPT_TEXT_CAP = 1_000_000;
/** The most of the file read at once; a larger file shows its newest part, and says so. */
const MAX_READ_BYTES = 64 * 1024 * 1024;

export function transcriptPath(home: string, id: string): string {
  return join(sessionsDir(home), `${id}.transcript.jsonl`);
}

/**
 * `text` within `cap` characters: a quarter from its start and the rest from its end (a test
 * run's summary is at the end), with a line in the middle saying how much was cut.
 */
export function capText(text: string, cap = TRANSCRIPT_TEXT_CAP): string {
  if (text.length <= cap) return text;
  const head = Math.floor(cap / 4);
  const tail = cap - head;
  const cut = text.length - cap;
  return `${text.slice(0, head)}\n[… ${cut.toLocaleString("en-US")} characters cut here: the transcript keeps ${cap.toLocaleString("en-US")} of each output]\n${text.slice(-tail)}`;
}

/** A value with every string in it capped (a tool call's input: write_file's content). */
export function capValue(value: unknown, cap = TRANSCRIPT_TEXT_CAP): unknown {
  if (typeof value === "string") return capText(value, cap);
  if (Array.isArray(value)) return value.map((v) => capValue(v, cap));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, capValue(v, cap)]));
  return value;
}

/**
 * Appends records to session `id`'s transcript in one write. An append to a file that ends in a
 * torn line (a crash or a full disk mid-write) starts with a newline, so the torn line stays the
 * only one lost. Creates the file (0600) when there is none.
 */
export function appendTranscript(home: string, id: string, records: readonly TranscriptRecord[]): void {
  if (records.length === 0) return;
  const path = transcriptPath(home, id);
  let text = records.map((r) => JSON.stringify(r)).join("\n") + "\n";
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (!endsWhole(path)) text = "\n" + text;
  appendFileSync(path, text, { mode: 0o600 });
}

/** True when the file is missing, empty, or ends with a newline. */
function endsWhole(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return true;
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

export type TranscriptRead = {
  records: TranscriptRecord[];
  /** Lines that were not a record (a torn last line after a crash, a hand edit): skipped. */
  skipped: number;
  /** Bytes at the start not read because the file is past MAX_READ_BYTES. */
  dropped: number;
};

/** Session `id`'s transcript; a missing or unreadable file reads as none. Never throws. */
export function readTranscript(home: string, id: string, maxBytes = MAX_READ_BYTES): TranscriptRead {
  let fd: number;
  try {
    fd = openSync(transcriptPath(home, id), "r");
  } catch {
    return { records: [], skipped: 0, dropped: 0 };
  }
  let text: string;
  let dropped = 0;
  try {
    const size = fstatSync(fd).size;
    dropped = Math.max(0, size - maxBytes);
    const bytes = Buffer.alloc(size - dropped);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, dropped + read);
      if (n === 0) break;
      read += n;
    }
    text = bytes.subarray(0, read).toString("utf8");
    // Read from the middle of the file: the first line is a piece of one.
    if (dropped > 0) text = text.slice(text.indexOf("\n") + 1);
  } catch {
    return { records: [], skipped: 0, dropped: 0 };
  } finally {
    closeSync(fd);
  }
  const records: TranscriptRecord[] = [];
  let skipped = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const record = parseRecord(line);
    if (record) records.push(record);
    else skipped++;
  }
  return { records, skipped, dropped };
}

const STRING_FIELDS: Record<TranscriptRecord["type"], readonly string[]> = {
  prompt: ["text"],
  answer: ["text"],
  reasoning: ["text"],
  call: ["id", "tool"],
  result: ["id", "tool", "summary", "outcome", "output"],
  shell: ["command", "output"],
  notice: ["text"],
  mark: ["text"],
};

/** One line as a record, or undefined when it is not one (torn, edited, from a newer shiro). */
function parseRecord(line: string): TranscriptRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== "object") return undefined;
  const record = value as Record<string, unknown>;
  const fields = typeof record.type === "string" && Object.hasOwn(STRING_FIELDS, record.type) ? STRING_FIELDS[record.type as TranscriptRecord["type"]] : undefined;
  if (!fields || !fields.every((f) => typeof record[f] === "string")) return undefined;
  if (record.type === "shell" && record.exitCode !== null && typeof record.exitCode !== "number") return undefined;
  return record as TranscriptRecord;
}

/** A fork's copy of session `from`'s transcript for session `to`, written whole (atomically); none when there is none. */
export function copyTranscript(home: string, from: string, to: string): void {
  let bytes: Buffer;
  try {
    bytes = readFileSync(transcriptPath(home, from));
  } catch {
    return;
  }
  writeStateFileSync(transcriptPath(home, to), bytes, { mode: 0o600 });
}

/** Removes session `id`'s transcript (with the session). */
export function removeTranscript(home: string, id: string): void {
  rmSync(transcriptPath(home, id), { force: true });
}
