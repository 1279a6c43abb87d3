import type { ToolResultPart } from "ai";
import { INTERRUPTED_RESULT } from "./repair.ts";

type ToolResultOutput = ToolResultPart["output"];

/** One pruned call, described: the pieces of its digest line, and whether it failed. */
export type ToolDigest = { tool: string; subject: string; outcome: string; failed: boolean; line: string };

/**
 * The deterministic one-line digest of a tool call whose content pruning removed, e.g.
 * `bash "bun test" → exit 1, 3 failures` or `edit_file src/a.ts → Edited src/a.ts: replaced 1
 * occurrence (+3 -1 lines).` It tells the model which tool ran, on what, and how it ended, so a
 * decision made forty messages back is not contradicted with confidence. Heuristic by design
 * (exit codes, error lines, test counts, line counts), bounded in length, and a pure function of
 * the call and its result, so the pruned prefix of the request is identical from step to step.
 */
export function digestToolCall(call: { toolName: string; input: unknown }, result?: { output: ToolResultOutput }): string {
  return digestOf(call, result).line;
}

/** The digest line and its pieces (for the roll-up of the oldest lines, see digest-rollup.ts). */
export function digestOf(call: { toolName: string; input: unknown }, result?: { output: ToolResultOutput }): ToolDigest {
  const subject = describeToolInput(call.toolName, call.input);
  const outcome = describeToolOutcome(call.toolName, result?.output);
  const failed = /^(error|denied|not run|no result|interrupted|timed out|killed)\b|^exit (?!0\b)/.test(outcome);
  return { tool: call.toolName, subject, outcome, failed, line: `${call.toolName}${subject ? " " + subject : ""} → ${outcome}` };
}

/** Heads the text block that replaces pruned tool calls, so the model reads the lines as a record. */
export const DIGEST_HEADER = "[tool calls pruned from context, outputs not shown]";

const SUBJECT_MAX = 80;
const OUTCOME_MAX = 100;

/** What the call was about: the command, path or pattern, quoted when it is free text. */
export function describeToolInput(toolName: string, input: unknown): string {
  if (!input || typeof input !== "object") return typeof input === "string" ? quote(input) : "";
  const o = input as Record<string, unknown>;
  const str = (key: string) => (typeof o[key] === "string" && (o[key] as string).length > 0 ? (o[key] as string) : undefined);
  const path = str("path") ?? str("file_path") ?? str("filePath");
  if (str("command")) return quote(str("command")!);
  if (str("pattern")) return quote(str("pattern")!) + (path ? ` in ${clip(path)}` : "") + (str("include") ? ` (${clip(str("include")!, 30)})` : "");
  if (path) {
    const extra =
      Array.isArray(o.edits) ? ` (${plural(o.edits.length, "edit")})`
      : typeof o.offset === "number" ? ` from line ${o.offset}`
      : "";
    return clip(path) + extra;
  }
  if (Array.isArray(o.todos)) return plural(o.todos.length, "task");
  if (str("text")) return (str("kind") ? `(${clip(str("kind")!, 20)}) ` : "") + quote(str("text")!);
  for (const key of ["query", "terms", "url", "name", "id"]) if (str(key)) return quote(str(key)!);
  if (Array.isArray(o.terms)) return quote(o.terms.join(" "));
  return "";
}

/** How the call ended, from its result, in a few words. */
export function describeToolOutcome(toolName: string, output: ToolResultOutput | undefined): string {
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
      return describeText(toolName, textOf(output.value));
    case "content":
      return describeText(toolName, output.value.map((p) => (p.type === "text" ? p.text : `[${p.type}]`)).join("\n"));
    default:
      return "done";
  }
}

/** Nouns for a multi-line result, by tool; anything else counts lines. */
const LINE_NOUN: Record<string, [string, string]> = {
  grep: ["match", "matches"],
  glob: ["file", "files"],
  list_dir: ["entry", "entries"],
};

function describeText(toolName: string, text: string): string {
  const trimmed = text.trim();
  if (!trimmed || trimmed === "(no output)") return "no output";
  if (trimmed.startsWith("Not run: ")) return `not run: ${clip(trimmed.slice(9), 60)}`;
  const head = firstLine(trimmed);
  const shell = shellEnd(head);
  if (shell) {
    const body = trimmed.slice(head.length).trim();
    return [shell, ...shellFacts(body)].join(", ");
  }
  const lines = contentLines(trimmed);
  // A one-line status ("Edited a.ts: …", "No matches for …") says it best; file content is counted.
  if (lines.length <= 1 && head.length <= OUTCOME_MAX && !/^\s*\d+\t/.test(head)) return clip(head, OUTCOME_MAX);
  const [one, many] = LINE_NOUN[toolName] ?? ["line", "lines"];
  const truncated = /\[(output truncated|Stopped at)/.test(trimmed) ? " (truncated)" : "";
  return plural(lines.length, one, many) + truncated;
}

/** The first line of shiro's bash result: exit code, timeout, signal or interruption. */
function shellEnd(head: string): string | undefined {
  let m = /^Exit code (-?\d+|null)/.exec(head);
  if (m) return `exit ${m[1]}`;
  m = /^Command timed out after ([\d.]+\s*m?s)/.exec(head);
  if (m) return `timed out after ${m[1]}`;
  m = /^Killed by (\w+)/.exec(head);
  if (m) return `killed by ${m[1]}`;
  if (/^Interrupted by the user/.test(head)) return "interrupted";
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
  return text.split("\n").filter((l) => l.trim().length > 0 && !l.startsWith("["));
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
