import type { ToolResultPart } from "ai";
import { BASH_BACKGROUND, BASH_EXITED, BASH_INTERRUPTED, BASH_KILLED, BASH_TIMED_OUT } from "../tools/bash.ts";
import { NOT_RUN_PREFIX, subjectOf, type AnyTool } from "../tools/define.ts";
import { INTERRUPTED_RESULT } from "./repair.ts";

type ToolResultOutput = ToolResultPart["output"];

/** What the digest reads off a tool's definition (lib/tools/define.ts). */
export type DigestedTool = Pick<AnyTool, "name" | "mutates" | "subject" | "digest">;

/**
 * One pruned call, described: the pieces of its digest line, whether it failed, and the file it
 * changed (a mutating tool with a path subject) for the roll-up.
 */
export type ToolDigest = { tool: string; subject: string; outcome: string; failed: boolean; line: string; changed?: string };

/**
 * The deterministic one-line digest of a tool call whose content pruning removed, e.g.
 * `bash "bun test" → exit 1, 3 failures` or `edit_file src/a.ts → Edited src/a.ts: replaced 1
 * occurrence (+3 -1 lines).` It tells the model which tool ran, on what, and how it ended, so a
 * decision made forty messages back is not contradicted with confidence. The subject and its note
 * come from the tool's definition (`tool`; a tool not given, such as one an old session used, is
 * described by its first string argument); the outcome is read from the result (exit codes, error
 * lines, test counts, line counts). Bounded in length, and a pure function of the call, its
 * result and the tool, so the pruned prefix of the request is identical from step to step.
 */
export function digestToolCall(call: { toolName: string; input: unknown }, result?: { output: ToolResultOutput }, tool?: DigestedTool): string {
  return digestOf(call, result, tool).line;
}

/** The digest line and its pieces (for the roll-up of the oldest lines, see digest-rollup.ts). */
export function digestOf(call: { toolName: string; input: unknown }, result?: { output: ToolResultOutput }, tool?: DigestedTool): ToolDigest {
  const subject = describeToolInput(call.input, tool);
  const outcome = describeToolOutcome(result?.output, tool);
  const failed = /^(error|denied|not run|no result|interrupted|timed out|killed)\b|^exit (?!0\b)/.test(outcome);
  const changed = tool?.mutates && tool.subject.kind === "path" ? pathOf(call.input, tool) : undefined;
  return {
    tool: call.toolName,
    subject,
    outcome,
    failed,
    line: `${call.toolName}${subject ? " " + subject : ""} → ${outcome}`,
    ...(changed ? { changed } : {}),
  };
}

/** A lookup by name for the tools a digest may meet. */
export function toolsByName(tools: readonly DigestedTool[] | undefined): (name: string) => DigestedTool | undefined {
  const byName = new Map((tools ?? []).map((tool) => [tool.name, tool]));
  return (name) => byName.get(name);
}

/** Heads the text block that replaces pruned tool calls, so the model reads the lines as a record. */
export const DIGEST_HEADER = "[tool calls pruned from context, outputs not shown]";

const SUBJECT_MAX = 80;
const OUTCOME_MAX = 100;

/** What the call was about: the path as it is, a command, pattern or text quoted, and the tool's note. */
export function describeToolInput(input: unknown, tool?: DigestedTool): string {
  if (typeof input === "string") return quote(input); // arguments replaced by a note (step.ts)
  if (!tool) {
    const first = firstString(input);
    return first ? quote(first) : "";
  }
  const subject = subjectOf(tool, input);
  if (!subject) return "";
  const note = safely(() => tool.digest?.note?.(input));
  return (tool.subject.kind === "path" ? clip(subject) : quote(subject)) + (note ? ` ${clip(note)}` : "");
}

/** The first non-empty string among an object's values: a reading of a call whose tool is not known. */
function firstString(input: unknown): string | undefined {
  if (!input || typeof input !== "object" || Array.isArray(input)) return undefined;
  return Object.values(input).find((value): value is string => typeof value === "string" && value.length > 0);
}

function pathOf(input: unknown, tool: DigestedTool): string | undefined {
  const path = subjectOf(tool, input);
  return path ? clip(path) : undefined;
}

function safely(note: () => string | undefined): string | undefined {
  try {
    const text: unknown = note();
    return typeof text === "string" ? text : undefined;
  } catch {
    return undefined;
  }
}

/** How the call ended, from its result, in a few words. */
export function describeToolOutcome(output: ToolResultOutput | undefined, tool?: DigestedTool): string {
  if (!output) return "no result";
  switch (output.type) {
    case "execution-denied":
      return output.reason ? `denied: ${clip(output.reason, 60)}` : "denied";
    case "error-text":
    case "error-json": {
      const text = textOf(output.value);
      if (text.startsWith(INTERRUPTED_RESULT.slice(0, 30))) return "interrupted before it finished";
      return `error: ${clip(firstLine(text), OUTCOME_MAX)}`;
    }
    case "text":
    case "json":
      return describeText(textOf(output.value), tool);
    case "content":
      return describeText(output.value.map((p) => (p.type === "text" ? p.text : `[${p.type}]`)).join("\n"), tool);
    default:
      return "done";
  }
}

function describeText(text: string, tool: DigestedTool | undefined): string {
  const trimmed = text.trim();
  if (!trimmed || trimmed === "(no output)") return "no output";
  if (trimmed.startsWith(NOT_RUN_PREFIX)) return `not run: ${clip(trimmed.slice(NOT_RUN_PREFIX.length), 60)}`;
  const head = firstLine(trimmed);
  const shell = shellEnd(head);
  if (shell) {
    const body = trimmed.slice(head.length).trim();
    return [shell, ...shellFacts(body)].join(", ");
  }
  const lines = countContentLines(trimmed);
  // A one-line status ("Edited a.ts: …", "No matches for …") says it best; file content is counted.
  if (lines <= 1 && head.length <= OUTCOME_MAX && !/^\s*\d+\t/.test(head)) return clip(head, OUTCOME_MAX);
  const [one, many] = tool?.digest?.unit ?? ["line", "lines"];
  const truncated = /\[(output truncated|Stopped at)/.test(trimmed) ? " (truncated)" : "";
  return plural(lines, one, many) + truncated;
}

/** The first line of a bash result (lib/tools/bash.ts): exit code, timeout, signal, interruption, or the job it became. */
function shellEnd(head: string): string | undefined {
  const after = (prefix: string, pattern: RegExp) => (head.startsWith(prefix) ? pattern.exec(head.slice(prefix.length))?.[1] : undefined);
  const code = after(BASH_EXITED, /^(-?\d+|null)/);
  if (code !== undefined) return `exit ${code}`;
  const duration = after(BASH_TIMED_OUT, /^([\d.]+\s*m?s)/);
  if (duration !== undefined) return `timed out after ${duration}`;
  const signal = after(BASH_KILLED, /^(\w+)/);
  if (signal !== undefined) return `killed by ${signal}`;
  if (head.startsWith(BASH_INTERRUPTED)) return "interrupted";
  // The job's id outlives the pruned result: the model still reads or stops it by that number.
  const job = after(BASH_BACKGROUND, /^(\d+)/);
  if (job !== undefined) return `background job ${job}`;
  return undefined;
}

/** Test counts when the output has them (the last summary wins), else the size of the output. */
function shellFacts(body: string): string[] {
  if (!body || body === "(no output)") return ["no output"];
  const failed = lastCount(body, /\b(\d+) (?:fail|failed|failing|failures?)\b/gi);
  const passed = lastCount(body, /\b(\d+) (?:pass|passed|passing)\b/gi);
  const errors = lastCount(body, /\b(\d+) errors?\b/gi);
  const facts: string[] = [];
  if (failed !== undefined) facts.push(plural(failed, "failure"));
  if (passed !== undefined) facts.push(`${passed} passed`);
  if (failed === undefined && passed === undefined && errors !== undefined) facts.push(plural(errors, "error"));
  if (facts.length === 0) {
    const errorLine = contentLines(body).find((l) => /\b(error|fatal|exception|cannot|not found|no such file)\b/i.test(l));
    facts.push(plural(contentLines(body).length, "line") + " of output");
    if (errorLine) facts.push(clip(errorLine.trim(), 60));
  }
  return facts;
}

function lastCount(text: string, pattern: RegExp): number | undefined {
  let found: number | undefined;
  for (const m of text.matchAll(pattern)) found = Number(m[1]);
  return found;
}

function contentLines(text: string): string[] {
  return text.split("\n").filter(isContentLine);
}

function isContentLine(line: string): boolean {
  return line.trim().length > 0 && !line.startsWith("[");
}

/** contentLines(text).length without the array (every result of a resumed session is described once). */
function countContentLines(text: string): number {
  let count = 0;
  for (let from = 0; from <= text.length; ) {
    const nl = text.indexOf("\n", from);
    const end = nl === -1 ? text.length : nl;
    if (text.charCodeAt(from) !== 91 /* [ */) {
      for (let i = from; i < end; i++) {
        if (!isSpace(text.charCodeAt(i))) {
          count++;
          break;
        }
      }
    }
    from = end + 1;
  }
  return count;
}

/** What String.prototype.trim removes (the same set as \s), for one UTF-16 unit. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(String.fromCharCode(c)));
}

function textOf(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
}

function firstLine(text: string): string {
  const nl = text.indexOf("\n");
  return nl === -1 ? text : text.slice(0, nl);
}

function quote(text: string): string {
  return JSON.stringify(clip(text, SUBJECT_MAX));
}

function clip(text: string, max = SUBJECT_MAX): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

function plural(n: number, one: string, many = one + "s"): string {
  return `${n} ${n === 1 ? one : many}`;
}
