import { describeQueue, type PromptQueue } from "../../lib/prompt/queue.ts";
import type { TypeAheadGuard } from "../../lib/prompt/type-ahead.ts";
import { wrapQuestion, wrapText } from "../../lib/text/wrap.ts";
import type { ApprovalGate } from "./approval-gate.ts";
import type { InputBox } from "./input/input-box.ts";
import type { LiveView } from "./input/screen.ts";
import { PROMPT } from "./replay.ts";
import type { Theme } from "./theme.ts";

/** Under an approval question while keys typed ahead went to the input (lib/prompt/type-ahead.ts). */
const TYPE_AHEAD_HINT = "  (typing goes to the prompt below; pause a moment, then answer)";

export type QuestionViewDeps = {
  gate: ApprovalGate;
  input: InputBox;
  typeAhead: TypeAheadGuard;
  queue: PromptQueue;
  theme: Theme;
  /** The screen redraws (the queue line is drawn only there). */
  rich: boolean;
  width: number;
  /** The remark under the input (ctrl-d's warning), already painted. */
  hint: string[];
  /** Rows kept in sight over the question: the subagents running, the one asking marked as waiting (rich screens only). */
  live?: readonly string[];
};

/**
 * The live view while a question is up: the question wrapped, its further rows indented under it,
 * its choices kept on one row, the cursor waiting at its end. Keys typed ahead of an approval
 * question went to the input: it stays in sight under the question, with why, and so do prompts
 * queued meanwhile, as during the turn. A follow-up question (what to do instead, keep it?, a
 * command's one-key question) keeps the queue in sight under it. A subagent's question keeps the
 * subagents' live lines over it, the asking one saying it waits for the answer.
 */
export function questionView(ask: { question: string; text?: string }, deps: QuestionViewDeps): LiveView {
  const { gate, input, typeAhead, queue, theme, rich, width, hint } = deps;
  const live = rich ? (deps.live ?? []) : [];
  const rows = wrapQuestion(ask.question, width);
  const queued = queue.size > 0 && rich ? [theme.dim(describeQueue(queue.items()))] : [];
  const answering = gate.pending() && !gate.typing() && !gate.choosingScope();
  if (answering && (input.line().text !== "" || typeAhead.diverted() || queue.size > 0)) {
    const line = input.line();
    const above = [...live, ...rows.map(theme.warn), ...wrapText(TYPE_AHEAD_HINT, width, { hang: 2 }).map(theme.dim), ...queued];
    return { above, prompt: PROMPT, paintedPrompt: theme.dim(PROMPT), text: line.text, cursor: line.cursor, below: [...input.rows(theme, width), ...hint] };
  }
  const lastRow = rows.at(-1)!;
  const typed = ask.text ?? "";
  return { above: [...live, ...rows.slice(0, -1).map(theme.warn)], prompt: lastRow, paintedPrompt: theme.warn(lastRow), text: typed, cursor: typed.length, below: [...queued, ...hint] };
}
