import type { Approver } from "../approval.ts";
import type { EventSink } from "../events.ts";
import { NOT_RUN_PREFIX, runTool, subjectOf, type AnyTool, type FileJournal } from "../tools/define.ts";

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
};

/** `output` is what the model reads; `summary` the screen's line ("" when denied). */
export type ToolCallOutcome = { output: string; summary: string; denied: boolean };

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
  try {
    // A go-between (mcp_call) is judged as the call it makes: its real tool and arguments.
    const judged = tool.standsFor?.(input) ?? { tool, input };
    const subject = subjectOf(judged.tool, judged.input) ?? "";
    const decision = await opts.approve({ tool: judged.tool, input: judged.input, subject, id });
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
      callId: id,
    });
  } catch (error) {
    try {
      if (opts.stepOpen?.() ?? true) opts.emit({ type: "tool-error", id, tool: tool.name, ...named, error: error instanceof Error ? error.message : String(error) });
    } finally {
      finished?.();
    }
    throw error;
  }
  const output = redact(result.output);
  try {
    if (opts.stepOpen?.() ?? true) opts.emit({ type: "tool-result", id, tool: tool.name, ...named, summary: result.summary, output });
  } finally {
    finished?.();
  }
  return { output, summary: result.summary, denied: false };
}
