import type { TranscriptRecord } from "../../lib/sessions/transcript-log.ts";
import { OUTCOME_MARKS, sanitize, sanitizeOutput } from "../../lib/render.ts";
import { overstrike } from "../../lib/text/overstrike.ts";

const INDENT = "    ";

/**
 * The transcript view's text (ctrl-o, /transcript): every prompt, answer and reasoning block, each
 * tool call with its whole input and whole output, `!cmd` runs with their exit codes, notices and
 * marks, in order. Plain text without colour (a `$PAGER` gets it as it is; the built-in pager
 * wraps it). `skipped`/`dropped` from the read are said first.
 */
export function transcriptLines(read: { records: readonly TranscriptRecord[]; skipped: number; dropped: number }): string[] {
  const lines: string[] = [];
  if (read.dropped > 0) lines.push(`(the transcript is long: its first ${Math.ceil(read.dropped / 1024 / 1024)} MB are not shown)`, "");
  if (read.skipped > 0) lines.push(`(${read.skipped} unreadable ${read.skipped === 1 ? "line" : "lines"} of the transcript file skipped, e.g. one cut short by a crash)`, "");
  for (const record of read.records) {
    switch (record.type) {
      case "prompt":
        lines.push(...blockWith("› ", "  ", record.text), "");
        break;
      case "answer":
        lines.push(...textLines(record.text), "");
        break;
      case "reasoning":
        lines.push("✻ reasoning", ...indented(record.text, "  "), "");
        break;
      case "call":
        lines.push(`→ ${oneLine(record.tool)}${record.subject ? " " + oneLine(record.subject) : ""}`, ...inputLines(record.input));
        break;
      case "result":
        lines.push(resultTitle(record), ...indented(record.output, INDENT), "");
        break;
      case "shell":
        lines.push(`! ${oneLine(record.command)}`, `  ${exitMark(record.exitCode)}`, ...indented(record.output, INDENT), "");
        break;
      case "notice": // a provider's error body, a hook's or a server's words: cleaned like an output
        lines.push(...blockWith("· ", "  ", record.text), "");
        break;
      case "mark":
        lines.push(`── ${oneLine(record.text)} ──`, "");
        break;
      default:
        record satisfies never;
    }
  }
  while (lines.at(-1) === "") lines.pop();
  return lines.length > 0 ? lines : ["Nothing in this session's transcript yet."];
}

/** `✓ exit 0`, `✗ exit 1`, `✗ did not finish` for a `!cmd`'s exit code. */
export function exitMark(code: number | null): string {
  if (code === null) return `${OUTCOME_MARKS.interrupted} did not exit on its own`;
  return `${code === 0 ? OUTCOME_MARKS.ok : OUTCOME_MARKS.failed} exit ${code}`;
}

/** The newest tool result or `!cmd` run, whole, for /last: its title and text. */
export function lastOutput(records: readonly TranscriptRecord[]): { title: string; text: string } | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i]!;
    if (record.type === "shell") return { title: `!${oneLine(record.command)} · ${exitMark(record.exitCode)}`, text: outputText(record.output) };
    if (record.type === "result") return { title: `${record.tool}${record.subject ? " " + oneLine(record.subject) : ""}${record.summary ? ` · ${record.summary}` : ""}`, text: outputText(record.output) };
  }
  return undefined;
}

/**
 * What /last shows: the newest output in the transcript, else (no transcript could be written)
 * the screen's copy, cleaned as the transcript's is (a tool's error or a denial's reason is raw).
 */
export function lastShown(records: readonly TranscriptRecord[], fallback: { title: string; text: string } | undefined): { title: string; text: string } | undefined {
  return lastOutput(records) ?? (fallback && { title: oneLine(fallback.title), text: outputText(fallback.text) });
}

function resultTitle(record: Extract<TranscriptRecord, { type: "result" }>): string {
  const mark = OUTCOME_MARKS[record.outcome as keyof typeof OUTCOME_MARKS] ?? OUTCOME_MARKS.ok;
  return `  ${mark} ${oneLine(record.tool)}${record.summary ? ` · ${oneLine(record.summary)}` : ""}${record.subject ? ` · ${oneLine(record.subject)}` : ""}`;
}

/** A call's input: bash's command line as it is; otherwise each argument, a long text under its name. */
function inputLines(input: unknown): string[] {
  if (!input || typeof input !== "object" || Array.isArray(input)) return input === undefined ? [] : indented(JSON.stringify(input, null, 2) ?? "", INDENT);
  const lines: string[] = [];
  for (const [name, value] of Object.entries(input)) {
    if (typeof value === "string" && value.includes("\n")) lines.push(`${INDENT}${name}:`, ...indented(value, INDENT + "  "));
    else if (typeof value === "string") lines.push(`${INDENT}${name}: ${sanitize(value)}`);
    else lines.push(...blockWith(`${INDENT}${name}: `, INDENT + "  ", JSON.stringify(value, null, 2) ?? String(value)));
  }
  return lines;
}

function outputText(output: string): string {
  return textLines(output).join("\n").replace(/\n+$/, "");
}

/** Text as lines a terminal shows: escapes gone, a line redrawn with `\r` as it was left. */
function textLines(text: string): string[] {
  return sanitizeOutput(text).split("\n").map((line) => overstrike(line));
}

function indented(text: string, indent: string): string[] {
  const lines = textLines(text.replace(/\n+$/, ""));
  return lines.length === 1 && lines[0] === "" ? [] : lines.map((line) => (line ? indent + line : ""));
}

function blockWith(first: string, rest: string, text: string): string[] {
  return textLines(text).map((line, i) => (i === 0 ? first : rest) + line);
}

function oneLine(text: string): string {
  return sanitize(text).replace(/\s+/g, " ").trim();
}
