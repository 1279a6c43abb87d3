import type { ModelMessage } from "ai";
import { digestToolCall, toolsByName, type DigestedTool } from "./digest.ts";
import { partsOf, type AnyPart } from "./item-ids.ts";
import { COMPACT_SUMMARY_INTRO, compactSummaryOf } from "../text/compact-intro.ts";

/** The summary's sections, in order; `/compact` asks for them as `## ` headings. */
export const COMPACT_SECTIONS = ["Goal", "Files touched", "Decisions", "Commands and outcomes", "What remains"] as const;

/** Opens the message that replaces the transcript after `/compact`. */
export { COMPACT_SUMMARY_INTRO };

export type CompactPromptOptions = {
  /** The rendered transcript is cut to this many characters (oldest entries go first; the first user message stays). */
  maxTranscriptChars?: number;
  /** How much of each tool result is quoted under its digest line. */
  toolExcerptChars?: number;
  /** The session's tools, whose definitions say how a call reads in its digest line. */
  tools?: readonly DigestedTool[];
  /** What the user asked the summary to keep above all (`/compact keep the benchmark numbers`). */
  focus?: string;
};

const DEFAULT_MAX_TRANSCRIPT_CHARS = 240_000;
const DEFAULT_TOOL_EXCERPT_CHARS = 400;

const INSTRUCTIONS = [
  "You write the handoff summary of a coding session. It will replace the whole conversation, so",
  "anything you leave out is lost. Write exactly these sections as markdown headings:",
  ...COMPACT_SECTIONS.map((s) => `## ${s}`),
  "Goal: what the user asked for, in their terms, and any constraints they set.",
  "Files touched: every file read, created or edited, with a few words on what changed.",
  "Decisions: what was chosen and why, including approaches that were tried and rejected.",
  "Commands and outcomes: the commands that matter and how they ended (exit codes, failing tests, exact error messages).",
  "What remains: the next steps, open questions and anything left broken.",
  "Be specific (paths, names, numbers, error texts). State only what the transcript shows. Output only the summary.",
].join("\n");

/**
 * The request for `/compact`: instructions and one user message holding the transcript rendered as
 * text (tool calls as digest lines with a short excerpt of each result, reasoning left out). Plain
 * text on purpose: it has no tool calls or provider item ids, so the summary request cannot fail
 * on a history invariant. Use as `generateText({ model, ...buildCompactPrompt(history) })`.
 */
export function buildCompactPrompt(messages: readonly ModelMessage[], options: CompactPromptOptions = {}): { instructions: string; messages: ModelMessage[] } {
  const transcript = transcriptForSummary(messages, options);
  const focus = options.focus?.trim();
  const asked = focus ? `\n\nThe user asks this summary to focus on: ${focus}\nKeep everything the transcript shows about it, in full detail.` : "";
  const text = `The session transcript:\n\n<transcript>\n${transcript}\n</transcript>${asked}\n\nWrite the summary now, with the ${COMPACT_SECTIONS.length} sections.`;
  return { instructions: INSTRUCTIONS, messages: [{ role: "user", content: text }] };
}

/** The transcript as readable text, within `maxTranscriptChars`. Deterministic. */
export function transcriptForSummary(messages: readonly ModelMessage[], options: CompactPromptOptions = {}): string {
  const max = options.maxTranscriptChars ?? DEFAULT_MAX_TRANSCRIPT_CHARS;
  const excerpt = options.toolExcerptChars ?? DEFAULT_TOOL_EXCERPT_CHARS;
  const toolNamed = toolsByName(options.tools);
  const results = new Map<string, AnyPart>();
  for (const m of messages) for (const p of partsOf(m)) if (p.type === "tool-result") results.set(p.toolCallId as string, p);

  const entries: string[] = [];
  for (const m of messages) {
    if (m.role === "tool") continue; // results are shown under their calls
    if (typeof m.content === "string") {
      if (m.content.trim()) entries.push(`[${m.role}]\n${m.content.trim()}`);
      continue;
    }
    const lines: string[] = [];
    for (const p of partsOf(m)) {
      if (p.type === "text" && typeof p.text === "string" && p.text.trim()) lines.push(p.text.trim());
      else if (p.type === "tool-call") {
        const result = results.get(p.toolCallId as string);
        const call = { toolName: p.toolName as string, input: p.input };
        lines.push(`> ${digestToolCall(call, result ? { output: result.output as never } : undefined, toolNamed(call.toolName))}`);
        const body = result ? resultText(result.output) : "";
        if (body && excerpt > 0) lines.push(indent(body.length > excerpt ? body.slice(0, excerpt) + " …" : body));
      } else if (p.type === "file" || p.type === "image") lines.push(`[${p.type}${typeof p.filename === "string" ? " " + p.filename : ""}]`);
    }
    if (lines.length > 0) entries.push(`[${m.role}]\n${lines.join("\n")}`);
  }
  return fit(entries, max);
}

/** Keeps the first entry (the request that started the session) and as many of the latest as fit. */
function fit(entries: string[], max: number): string {
  const all = entries.join("\n\n");
  if (all.length <= max || entries.length <= 1) return all.slice(0, max);
  const first = entries[0]!.slice(0, Math.floor(max / 4));
  let budget = max - first.length - 80;
  const tail: string[] = [];
  for (let i = entries.length - 1; i >= 1; i--) {
    const entry = entries[i]!;
    if (entry.length + 2 > budget) break;
    tail.unshift(entry);
    budget -= entry.length + 2;
  }
  const omitted = entries.length - 1 - tail.length;
  return [first, `[… ${omitted} earlier entries omitted to fit …]`, ...tail].join("\n\n");
}

function resultText(output: unknown): string {
  const o = output as { type?: string; value?: unknown; reason?: string };
  if (o.type === "execution-denied") return `denied${o.reason ? ": " + o.reason : ""}`;
  if (o.type === "content" && Array.isArray(o.value)) return o.value.map((p: { type: string; text?: string }) => p.text ?? `[${p.type}]`).join("\n");
  return typeof o.value === "string" ? o.value : JSON.stringify(o.value ?? "");
}

function indent(text: string): string {
  return text.replace(/^/gm, "    ");
}

export type ApplySummaryOptions = {
  /** How many of the section headings must be present for the summary to be used. */
  minSections?: number;
};

/**
 * The messages that replace the transcript, or undefined when the model's text is not a usable
 * summary (empty, too short, or missing most sections): the caller then keeps the transcript as it
 * was — a failed summary must never destroy history. The summary becomes one user message.
 */
export function applyCompactSummary(summaryText: string | null | undefined, options: ApplySummaryOptions = {}): ModelMessage[] | undefined {
  const text = unfence((summaryText ?? "").trim());
  if (text.length < 40) return undefined;
  const found = COMPACT_SECTIONS.filter((section) => headingPattern(section).test(text)).length;
  if (found < (options.minSections ?? 3)) return undefined;
  return [{ role: "user", content: `${COMPACT_SUMMARY_INTRO}\n\n${text}` }];
}

/** A section name at the start of a line, as a markdown heading, bold, or a label with a colon. */
function headingPattern(section: string): RegExp {
  const name = section.replace(/ /g, "\\s+");
  return new RegExp(`^\\s{0,3}(#{1,6}\\s*|\\*\\*\\s*|\\d+[.)]\\s*)?${name}\\b`, "im");
}

function unfence(text: string): string {
  const m = /^```[\w-]*\n([\s\S]*?)\n```$/.exec(text);
  return m ? m[1]!.trim() : text;
}

/** How a `/compact` went: the replacement, or why the transcript was kept. */
export type CompactOutcome = { type: "compacted"; messages: ModelMessage[]; summary: string } | { type: "failed"; message: string } | { type: "unusable" };

/**
 * `/compact` and `shiro sessions compact`: asks for the summary with `ask` and returns the
 * messages that replace the transcript. A failed request (`ask` throws) or an unusable summary
 * leaves the transcript to the caller untouched. Never throws.
 */
export async function compactTranscript(
  messages: readonly ModelMessage[],
  ask: (request: { instructions: string; messages: ModelMessage[] }) => Promise<string>,
  options: CompactPromptOptions = {},
): Promise<CompactOutcome> {
  let summary: string;
  try {
    summary = await ask(buildCompactPrompt(messages, options));
  } catch (error) {
    return { type: "failed", message: error instanceof Error ? error.message : String(error) };
  }
  const replacement = applyCompactSummary(summary);
  return replacement ? { type: "compacted", messages: replacement, summary: compactSummaryOf(replacement[0]!.content as string) ?? "" } : { type: "unusable" };
}
