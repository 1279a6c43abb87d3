import type { LanguageModel, ModelMessage } from "ai";
import type { EventSink, TurnStatus, Usage } from "../events.ts";
import type { AnyTool } from "../tools/define.ts";
import { closeDanglingToolCalls, inlineHistory } from "../prune/repair.ts";
import { compactedEvent, pruneForWire } from "../prune/prune.ts";
import { isMissingItemError, MISSING_ITEM_NOTICE } from "../prune/missing-item-error.ts";
import { describeProviderError, retryDelayMs } from "./provider-error.ts";
import { runStep } from "./step.ts";
import { toSdkTools, type Approver } from "./sdk-tools.ts";

export const DEFAULT_RETRY_BASE_MS = 1_000;

export type TurnOptions = {
  model: LanguageModel;
  /** The session's history, already ending with the new user message. The turn appends to it. */
  history: ModelMessage[];
  tools: readonly AnyTool[];
  /** Rebuilt before every step, so a todo_write on step one is visible to step two. */
  instructions: () => string;
  /** Estimated-token threshold past which the request is pruned (the local history never is). */
  compactAtTokens: number;
  maxSteps: number;
  maxRetries: number;
  retryBaseMs?: number;
  root: string;
  cwd: string;
  signal: AbortSignal;
  emit: EventSink;
  approve: Approver;
  /** Applied to tool output before the model or the screen sees it (removes the API key). */
  redact?: (text: string) => string;
  /** Called after every step with the history so far (autosave). Must not throw. */
  onStep?: (history: readonly ModelMessage[], usage: Usage) => void;
};

export type TurnResult = { status: TurnStatus; steps: number; usage: Usage; error?: string };

/**
 * Runs one user turn: steps until the model stops calling tools, the step cap is reached, the
 * signal aborts or the provider fails for good. Retries a step only when nothing has been shown
 * yet, so no text is ever said twice. Every exit leaves a history whose tool calls all have
 * results. Emits a single `done` event at the end; never throws for provider or tool failures.
 */
export async function runTurn(opts: TurnOptions): Promise<TurnResult> {
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  const baseMs = opts.retryBaseMs ?? DEFAULT_RETRY_BASE_MS;
  let steps = 0;
  let status: TurnStatus = "success";
  let errorMessage: string | undefined;
  let compactedReported = false;
  let inlinedThisTurn = false;

  for (;;) {
    if (opts.signal.aborted) {
      status = "interrupted";
      break;
    }
    if (steps >= opts.maxSteps) {
      status = "step-cap";
      errorMessage = `stopped after ${opts.maxSteps} steps (the step cap). Raise it with --max-steps, or ask shiro to continue.`;
      opts.emit({ type: "error", message: errorMessage });
      break;
    }
    steps++;
    let stepOpen = true;
    const tools = toSdkTools(opts.tools, { root: opts.root, cwd: opts.cwd, signal: opts.signal, emit: opts.emit, approve: opts.approve, redact: opts.redact, stepOpen: () => stepOpen });

    let outcome;
    for (let attempt = 1; ; attempt++) {
      const { messages: wire, report } = pruneForWire(closeDanglingToolCalls(opts.history), { thresholdTokens: opts.compactAtTokens, tools: opts.tools });
      const compacted = compactedReported ? undefined : compactedEvent(report);
      if (compacted) {
        opts.emit(compacted); // once per turn, not per step
        compactedReported = true;
      }
      outcome = await runStep({
        model: opts.model,
        instructions: opts.instructions(),
        messages: wire,
        tools,
        toolDefs: opts.tools,
        signal: opts.signal,
        emit: opts.emit,
      });
      if (!outcome.error || outcome.aborted || outcome.sawOutput) break; // text on screen cannot be unsent
      if (!inlinedThisTurn && isMissingItemError(outcome.error)) {
        // The provider forgot items this history points at; waiting won't bring them back. Rewrite
        // the session's own history without item ids and send it again, once per turn.
        inlinedThisTurn = true;
        opts.history.splice(0, opts.history.length, ...inlineHistory(opts.history));
        opts.emit({ type: "notice", message: MISSING_ITEM_NOTICE });
        attempt--;
        continue;
      }
      const failure = describeProviderError(outcome.error);
      if (!failure.retryable || attempt > opts.maxRetries) break;
      const delay = retryDelayMs(attempt, baseMs, failure.retryAfterMs);
      opts.emit({ type: "notice", message: `${failure.message}; retrying in ${formatDelay(delay)} (attempt ${attempt + 1} of ${opts.maxRetries + 1})` });
      if (!(await sleep(delay, opts.signal))) break;
    }

    stepOpen = false; // a call still running now reports no result (tool-call.ts); the repair closes it
    opts.history.push(...outcome.messages);
    usage.inputTokens += outcome.usage.inputTokens;
    usage.outputTokens += outcome.usage.outputTokens;
    if (outcome.usage.cachedInputTokens) usage.cachedInputTokens = (usage.cachedInputTokens ?? 0) + outcome.usage.cachedInputTokens;
    opts.onStep?.(opts.history, usage);
    opts.emit({ type: "step", step: steps, usage: outcome.usage });

    if (outcome.aborted || opts.signal.aborted) {
      status = "interrupted";
      break;
    }
    if (outcome.error) {
      status = "error";
      errorMessage = describeProviderError(outcome.error).message;
      opts.emit({ type: "error", message: errorMessage });
      break;
    }
    if (!outcome.wantsMore) break;
  }

  // Whatever happened, the stored history must be sendable next time.
  const closed = closeDanglingToolCalls(opts.history);
  if (closed !== opts.history) opts.history.splice(0, opts.history.length, ...closed);
  opts.emit({ type: "done", status, steps, usage });
  return { status, steps, usage, ...(errorMessage ? { error: errorMessage } : {}) };
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
}

/** Resolves true after `ms`, or false as soon as the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
