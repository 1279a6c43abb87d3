import { attachedPaths, withoutAttachments } from "../../lib/prompt/attach.ts";
import { callContext, paintOutcome, sanitize } from "../../lib/render.ts";
import { bashCommandOnly, firstLine, resultLine, unansweredLine, type SubjectKindOf, type TranscriptItem } from "../../lib/sessions/transcript-items.ts";
import { renderMarkdown } from "../../lib/text/markdown.ts";
import { wrapHanging, wrapLine, wrapText } from "../../lib/text/wrap.ts";
import type { RowKind } from "./event-view.ts";
import type { Theme } from "./theme.ts";

/** What the prompt line starts with, in the input and in the transcript. */
export const PROMPT = "› ";
/** Transcript items a resumed session replays (the oldest beyond are counted). */
const REPLAY_ITEMS = 60;
/** Lines of a replayed prompt shown before the rest is counted. */
const REPLAY_PROMPT_LINES = 3;
/** Starts the line that ends a replay; the PTY specs look for it. */
export const REPLAY_END = "── resumed session";

export type Rows = { rows: string[]; kind: RowKind | "prompt" | "other" };

/** The prompt as sent, in the transcript: `› text`, its further lines indented. */
export function promptRows(text: string, theme: Theme, width: number): Rows {
  const rows = text.split("\n").flatMap((line, i) => wrapHanging(i === 0 ? theme.prompt(PROMPT) : "  ", "  ", theme.user(line), width));
  return { rows, kind: "prompt" };
}

/**
 * The conversation so far, condensed, for the screen of a resumed session: prompts (their first
 * lines, and the files that went with them), answers rendered, one line per tool call: its live
 * result line (`✓ read_file: 2 lines · notes.txt`), which names the call's subject, a path by its
 * end (`subjectKind`), anything else by its start.
 */
export function replayRows(items: readonly TranscriptItem[], theme: Theme, width: number, subjectKind: SubjectKindOf = bashCommandOnly): Rows[] {
  if (items.length === 0) return [];
  const note = (text: string): Rows => ({ rows: wrapText(text, width), kind: "other" });
  const results = new Map<string, Extract<TranscriptItem, { type: "tool-result" }>>();
  for (const item of items) if (item.type === "tool-result") results.set(item.id, item);
  const shown = items.filter((item) => item.type !== "tool-result" && item.type !== "system");
  const out: Rows[] = [];
  const hidden = shown.length - REPLAY_ITEMS;
  if (hidden > 0) out.push(note(theme.dim(`… ${hidden} earlier ${hidden === 1 ? "item" : "items"} (shiro sessions show has them all)`)));
  for (const item of shown.slice(-REPLAY_ITEMS)) {
    switch (item.type) {
      case "user": {
        for (const line of item.shell ?? []) out.push(promptRows(sanitize(line), theme, width));
        // The prompt as typed: a command's line (/init) rather than the text it wrote; without the
        // `!cmd` output that went before it and the files attached after it.
        const typed = item.typed ?? withoutAttachments(item.text);
        const lines = sanitize(typed).trimEnd().split("\n");
        const more = lines.length - REPLAY_PROMPT_LINES;
        out.push(promptRows(lines.slice(0, REPLAY_PROMPT_LINES).join("\n") + (more > 0 ? `\n… ${more} more ${more === 1 ? "line" : "lines"}` : ""), theme, width));
        const files = attachedPaths(item.text);
        if (files.length > 0) out.push(note(theme.dim(`  attached ${files.map(sanitize).join(", ")}`)));
        break;
      }
      case "assistant":
        out.push({ rows: renderMarkdown(sanitize(item.text), theme.markdown, width - 1), kind: "text" });
        break;
      case "summary":
        // What /compact put in place of the conversation before it: the model wrote it, the user did not.
        out.push(note(theme.dim("── summary of the conversation before /compact")));
        out.push({ rows: renderMarkdown(sanitize(item.text), theme.markdown, width - 1), kind: "text" });
        break;
      case "interrupted":
        out.push({ rows: wrapLine(theme.warn("interrupted"), width), kind: "tool" });
        break;
      case "unanswered":
        out.push({ rows: wrapLine(theme.dim(sanitize(unansweredLine(item))), width), kind: "tool" });
        break;
      case "tool-call": {
        // The call's live result line (one line per call here, so it names the call's subject,
        // whatever its kind); a call with no result was cut short.
        const result = results.get(item.id) ?? { type: "tool-result" as const, id: item.id, tool: item.tool, text: "", error: true, outcome: "interrupted" as const };
        const path = subjectKind(item.tool) === "path";
        const naming = item.subject ? callContext(path ? "path" : "command", path ? item.subject : firstLine(item.subject, 60)) : {};
        const line = resultLine(result, item.subject, naming);
        out.push({ rows: wrapLine(result.outcome === "denied" ? theme.warn(line) : paintOutcome(theme, result.outcome, line), width), kind: "tool" });
        break;
      }
      default:
        break;
    }
  }
  return out;
}
