import type { Approver } from "../approval.ts";
import type { EventSink } from "../events.ts";
import { NOT_RUN_PREFIX, runTool, subjectOf, type AnyTool, type FileJournal, type ToolContext } from "../tools/define.ts";
import type { StoredImage } from "../image/part.ts";
import type { Hooks } from "../hooks/hooks.ts";
import { postToolUse, preToolUse } from "./tool-hooks.ts";

export type ToolCallOptions = {
  root: string;
  cwd: string;
  /** The turn's signal. */
  signal: AbortSignal;
  emit: EventSink;
  approve: Approver;
  /** Applied to everything a tool prints or returns (the API key must not reach the model or a file). */
  redact?: (text: string) => string;
  /**
   * False once the step the call belongs to is over (aborted, or the SDK failed under it). A call
   * that ends after that reports neither tool-result nor tool-error: the turn has moved on, and the
   * history repair closes the call. Default: always open.
   */
  stepOpen?: () => boolean;
  /**
   * The turn's record of changed files (/undo), handed to every tool. Its `ready()`, when it has
   * one (the turn's own, not a subagent's), is called before a tool runs: the turn's start is on
   * disk before anything can change.
   */
  journal?: FileJournal & { ready?(): void };
  /** The session's hooks (docs/hooks.md): PreToolUse before the approval, PostToolUse(Failure) after the call. */
  hooks?: Hooks;
  /** Where a tool's images are kept (ToolContext.images). */
  images?: ToolContext["images"];
};

/** `output` is what the model reads, and `images` after it; `summary` the screen's line ("" when denied). */
export type ToolCallOutcome = { output: string; summary: string; denied: boolean; images?: StoredImage[] };

/**
 * One tool call from approval to its report. Emits, in order: `tool-denied` (and the model reads
 * NOT_RUN_PREFIX + the reason), or `tool-output` chunks while it runs and then `tool-result`. A
 * failure (bad input, a ToolError, an approver that throws) is emitted as `tool-error` and
 * rethrown, so the SDK gives the model an error result. The denial, result or error of a call
 * that ends after its step (see stepOpen) is not reported: the turn reports it as interrupted. `tool-start` and `tool-call` come before,
 * from the stream (step.ts).
 */
export async function runToolCall(tool: AnyTool, input: unknown, id: string, opts: ToolCallOptions): Promise<ToolCallOutcome> {
  const redact = opts.redact ?? ((text: string) => text);
  /** The call's subject as its tool-call event gave it: its result or error names it too. */
  const called = subjectOf(tool, input);
  const named = called ? { subject: called } : {};
  let result;
  /** The approval's `done`: called once the call's outcome is reported, so what waits for it comes after. */
  let finished: (() => void) | undefined;
  /** What PreToolUse hooks added for the model, read after the call's own result. */
  let hookNotes = "";
  // A go-between (mcp_call) is judged, and shown to hooks, as the call it makes: its real tool and arguments.
  let judged = tool.standsFor?.(input) ?? { tool, input };
  try {
    let hook: "allow" | "ask" | undefined;
    if (opts.hooks?.has("PreToolUse")) {
      const pre = await preToolUse(opts.hooks, judged.tool.name, judged.input, id, opts.root, opts.signal, opts.emit);
      if (!pre.run) {
        const reason = `a PreToolUse hook refused this call: ${pre.reason}`;
        if (opts.stepOpen?.() ?? true) opts.emit({ type: "tool-denied", id, tool: tool.name, subject: called || undefined, reason, shown: "refused by a hook" });
        return { output: `${NOT_RUN_PREFIX}${reason}`, summary: "", denied: true };
      }
      // A changed input is judged again in full (guard, rules, question) as if the model wrote it.
      if (pre.input !== judged.input && judged.tool === tool) judged = { tool, input: (input = pre.input) };
      hook = pre.hook;
      if (pre.context.length > 0) hookNotes = `\n\n[PreToolUse hook]\n${pre.context.join("\n")}`;
    }
    const subject = subjectOf(judged.tool, judged.input) ?? "";
    const decision = await opts.approve({ tool: judged.tool, input: judged.input, subject, id, ...(hook ? { hook } : {}) });
    if (!decision.allow) {
      if (opts.stepOpen?.() ?? true) opts.emit({ type: "tool-denied", id, tool: tool.name, subject: subject || undefined, reason: decision.reason, ...(decision.shown ? { shown: decision.shown } : {}) });
      return { output: `${NOT_RUN_PREFIX}${decision.reason}`, summary: "", denied: true };
    }
    finished = decision.done;
    opts.journal?.ready?.();
    result = await runTool(tool, input, {
      root: opts.root,
      cwd: opts.cwd,
      signal: decision.signal ? AbortSignal.any([opts.signal, decision.signal]) : opts.signal,
      ...(decision.runOutside ? { runOutside: decision.runOutside } : {}),
      ...(decision.readOnly ? { readOnly: true } : {}),
      onOutput: (stream, chunk) => opts.emit({ type: "tool-output", id, tool: tool.name, stream, chunk: redact(chunk) }),
      notice: (message) => opts.emit({ type: "notice", message: redact(message) }),
      ...(opts.journal ? { journal: opts.journal } : {}),
      ...(opts.images ? { images: opts.images } : {}),
      callId: id,
    });
  } catch (error) {
    try {
      if (opts.hooks && error instanceof Error) {
        const said = await postToolUse(opts.hooks, judged.tool.name, judged.input, id, opts.root, { error: error.message, interrupted: opts.signal.aborted }, opts.signal, opts.emit);
        error.message += said;
      }
      if (opts.stepOpen?.() ?? true) opts.emit({ type: "tool-error", id, tool: tool.name, ...named, error: error instanceof Error ? error.message : String(error) });
    } finally {
      finished?.();
    }
    throw error;
  }
  const after = opts.hooks ? await postToolUse(opts.hooks, judged.tool.name, judged.input, id, opts.root, { output: result.output }, opts.signal, opts.emit) : "";
  const output = redact(result.output + hookNotes + after);
  try {
    if (opts.stepOpen?.() ?? true) opts.emit({ type: "tool-result", id, tool: tool.name, ...named, summary: result.summary, output, ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}) });
  } finally {
    finished?.();
  }
  return { output, summary: result.summary, denied: false, ...(result.images?.length ? { images: result.images } : {}) };
}
