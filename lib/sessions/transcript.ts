import type { SessionRecord, SubagentTranscript } from "./schema.ts";
import { formatUsd } from "./pricing.ts";
import { serializeSession } from "./serialize.ts";
import { callContext, OUTCOME_MARKS, type CallContext } from "../render.ts";
import { bashCommandOnly, firstLine, resultLine, resultWords, transcriptItems, unansweredLine, type SubjectKindOf, type SubjectOf, type TranscriptItem } from "./transcript-items.ts";

export type TranscriptOptions = {
  /** Names a tool call's subject; defaults to a guess from its input (transcript-items.ts). */
  subjectOf?: SubjectOf;
  /** Which tools' results name their call's subject (a command, a path); defaults to bash's command only. */
  subjectKind?: SubjectKindOf;
};

/**
 * `shiro sessions show`: the session as plain text for a terminal or a pager. User prompts are
 * marked "›", each the user sent numbered (`[2] › …`: what `shiro rewind --to 2` goes back before), tool calls and their results are one line each, in the live run's form
 * (transcript-items.ts resultLine).
 * No colour (the caller's business). Ends with a newline.
 */
export function renderTranscript(record: SessionRecord, opts: TranscriptOptions = {}): string {
  const out: string[] = [record.title || "(untitled)", ...metaLines(record), ""];
  const subagents = record.subagents ?? [];
  const shown = new Set<SubagentTranscript>();
  // Each subagent's own run, under the task call it worked for: the parent only read its report.
  const under = (callId: string) =>
    subagents
      .filter((sub) => sub.callId === callId)
      .flatMap((sub) => {
        shown.add(sub);
        return subagentLines(sub, opts);
      });
  for (const line of transcriptLines(record.messages, opts, under, true)) out.push(line);
  for (const sub of subagents.filter((s) => !shown.has(s))) out.push("", ...subagentLines(sub, opts));
  return out.join("\n").trimEnd() + "\n";
}

/** One subagent's run, indented under a line that names it. */
function subagentLines(sub: SubagentTranscript, opts: TranscriptOptions): string[] {
  const head = `  ↳ subagent ${sub.kind} · ${oneLine(sub.description)} · ${sub.status}, ${sub.steps} ${sub.steps === 1 ? "step" : "steps"} on ${sub.model} (task call ${sub.callId})`;
  return [head, ...transcriptLines(sub.messages, opts).map((line) => (line ? `      ${line}` : line))];
}

/** The lines of one history: prompts, answers, a line per tool call and per result. */
function transcriptLines(messages: SessionRecord["messages"], opts: TranscriptOptions, under: (callId: string) => string[] = () => [], numbered = false): string[] {
  const out: string[] = [];
  let previous: TranscriptItem["type"] | undefined;
  const calls = new Map<string, { subject: string; naming: CallContext }>();
  const kindOf = opts.subjectKind ?? bashCommandOnly;
  for (const item of transcriptItems(messages, opts.subjectOf)) {
    const grouped = previous !== undefined && (item.type === "unanswered" || ((item.type === "tool-call" || item.type === "tool-result") && previous !== "user"));
    if (!grouped && previous !== undefined) out.push("");
    switch (item.type) {
      case "user":
        // Not push(...lines): a prompt of a few million lines (a piped log) is past the argument limit.
        for (const line of prefixLines(item.text, numbered && item.number !== undefined ? `[${item.number}] › ` : "› ", "  ")) out.push(line);
        break;
      case "assistant":
        out.push(item.text.trimEnd());
        break;
      case "summary":
        out.push("[summary of the conversation before /compact]", item.text.trimEnd());
        break;
      case "system":
        for (const line of prefixLines(item.text, "[system] ", "         ")) out.push(line);
        break;
      case "tool-call":
        // A command by its first line, as it was run; a path whole (callNaming clips it).
        if (item.subject) calls.set(item.id, { subject: item.subject, naming: callContext(kindOf(item.tool), kindOf(item.tool) === "command" ? firstLine(item.subject, 60) : item.subject) });
        out.push(`→ ${item.tool}${item.subject ? " " + oneLine(item.subject) : ""}`);
        for (const line of under(item.id)) out.push(line);
        break;
      case "tool-result":
        out.push(resultLine(item, calls.get(item.id)?.subject, calls.get(item.id)?.naming));
        break;
      case "interrupted":
        out.push("(interrupted)");
        break;
      case "unanswered":
        out.push(unansweredLine(item));
        break;
      default:
        item satisfies never;
    }
    previous = item.type;
  }
  return out;
}

export type ExportFormat = "md" | "json";

/**
 * `shiro sessions export`. "json" is the record itself, pretty-printed (only the record's own
 * fields, as on disk). "md" is a readable transcript: prompts and answers in full, each tool
 * call one line with its subject, each result abbreviated to one line. Ends with a newline.
 */
export function exportSession(record: SessionRecord, format: ExportFormat, opts: TranscriptOptions = {}): string {
  switch (format) {
    case "json":
      return JSON.stringify(JSON.parse(serializeSession(record)), null, 2) + "\n";
    case "md":
      return markdown(record, opts);
    default:
      return format satisfies never;
  }
}

function markdown(record: SessionRecord, opts: TranscriptOptions): string {
  const out: string[] = [`# ${oneLine(record.title || "Untitled session")}`, "", ...metaLines(record).map((line) => `- ${line}`)];
  let section: "User" | "Assistant" | "System" | "Summary (/compact)" | undefined;
  let lastWasTool = false;
  const items = transcriptItems(record.messages, opts.subjectOf);
  // Each result goes under its own call's bullet, even when calls made together report after all of them.
  const calls = new Set(items.flatMap((item) => (item.type === "tool-call" ? [item.id] : [])));
  const results = new Map(items.flatMap((item) => (item.type === "tool-result" && calls.has(item.id) ? [[item.id, item] as const] : [])));
  // The words of the live line (resultWords): `42 lines`, `exit 1`; a call not run, the few words of its denial.
  const resultBullet = (item: Extract<TranscriptItem, { type: "tool-result" }>) => {
    const words = item.outcome === "denied" ? `not run${item.shown ? ` (${item.shown})` : ""}` : resultWords(item);
    return `  - ${OUTCOME_MARKS[item.outcome]} ${words.trim() ? code(oneLine(words)) : "(no output)"}`;
  };
  for (const item of items) {
    if (item.type === "tool-result" && results.has(item.id)) continue; // written under its call
    // An interruption stays in the section it cut short.
    const wanted = item.type === "user" ? "User" : item.type === "system" ? "System" : item.type === "summary" ? "Summary (/compact)" : item.type === "interrupted" || item.type === "unanswered" ? (section ?? "Assistant") : "Assistant";
    if (wanted !== section) {
      out.push("", `## ${wanted}`);
      section = wanted;
      lastWasTool = false;
    }
    const isTool = item.type === "tool-call" || item.type === "tool-result";
    if (!isTool || !lastWasTool) out.push("");
    switch (item.type) {
      case "user":
      case "assistant":
      case "system":
      case "summary":
        out.push(item.text.trim());
        break;
      case "tool-call": {
        out.push(`- **${item.tool}**${item.subject ? " " + code(oneLine(item.subject)) : ""}`);
        const result = results.get(item.id);
        if (result) out.push(resultBullet(result));
        break;
      }
      case "tool-result":
        out.push(resultBullet(item));
        break;
      case "interrupted":
        out.push("_(interrupted by the user)_");
        break;
      case "unanswered":
        out.push(`_(${unansweredLine(item).trim().replace(/^\S+ /, "")})_`);
        break;
      default:
        item satisfies never;
    }
    lastWasTool = isTool;
  }
  return out.join("\n").trimEnd() + "\n";
}

function metaLines(record: SessionRecord): string[] {
  const lines = [
    `session ${record.id}`,
    `directory ${record.cwd}`,
    `model ${record.provider} ${record.model}`,
    `created ${record.createdAt}, updated ${record.updatedAt}`,
    `${record.messages.length} messages, ${record.inputTokens.toLocaleString("en-US")} input and ${record.outputTokens.toLocaleString("en-US")} output tokens, cost ${formatUsd(record.costUsd)}`,
  ];
  if (record.forkedFrom) lines.push(`forked from ${record.forkedFrom}`);
  return lines;
}

function prefixLines(text: string, first: string, rest: string): string[] {
  return text
    .trimEnd()
    .split("\n")
    .map((line, i) => (i === 0 ? first : rest) + line);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Inline code that survives backticks in the text. */
function code(text: string): string {
  const longest = (text.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0);
  const fence = "`".repeat(longest + 1);
  return longest > 0 ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}
