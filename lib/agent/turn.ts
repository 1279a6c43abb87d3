import type { LanguageModel, ModelMessage } from "ai";
import type { EventSink, TurnStatus, Usage } from "../events.ts";
import type { AnyTool } from "../tools/define.ts";
import { closeDanglingToolCalls, inlineHistory, INTERRUPTED_RESULT } from "../prune/repair.ts";
import { compactedEvent } from "../prune/prune.ts";
import { reportTo } from "./tool-hooks.ts";
import { estimateTokens } from "../prune/tokens.ts";
import type { ContextWindow } from "../provider/context-window.ts";
import { withNextStep } from "../provider/next-step.ts";
import { waitToRetry } from "./retry.ts";
import { describeProviderError } from "../provider/provider-error.ts";
import { runSteps, type StepOutcome } from "./step.ts";
import { prepareRequest, type PreparedRequest } from "./next-request.ts";
import { imagesOnWire, type WireImages } from "./wire-images.ts";
import { isImageRefusal } from "../provider/image-support.ts";
import { recover } from "./recovery.ts";
import type { Approver } from "../approval.ts";
import type { Settings } from "../config/resolve.ts";
import type { CallOptions } from "../provider/call-options.ts";
import { toSdkTools } from "./sdk-tools.ts";
import { plural } from "../text/lines.ts";
import { resultNote, withResultNotes, type ResultNote } from "./result-notes.ts";
import type { ToolCallOptions } from "./tool-call.ts";
import { requestBudget } from "./context-budget.ts";

/**
 * The owner of the history a turn works on (the session). The turn never changes an array it was
 * given: it reads `history` before each step and reports every change through these methods.
 */
export type TurnHistory = {
  /** The history so far, ending with the new user message when the turn starts. */
  readonly history: readonly ModelMessage[];
  /** A step's messages and the tokens it used. */
  append(messages: readonly ModelMessage[], usage: Usage): void;
  /** The whole history rewritten (inlined for a provider that forgot its items; the end-of-turn repair). */
  replace(messages: readonly ModelMessage[]): void;
  /** The step under way, kept on record until its messages are appended (LiveSession.inProgress). */
  inProgress?(messages: readonly ModelMessage[]): void;
};

/**
 * What the turn needs: where and how its tool calls run (the same fields a call gets:
 * ToolCallOptions), and the turn's own.
 */
export type TurnOptions = Pick<ToolCallOptions, "root" | "cwd" | "signal" | "approve" | "redact" | "journal" | "hooks"> & {
  model: LanguageModel;
  /** Provider options for every request of the turn (Runtime.callOptions). */
  callOptions: CallOptions;
  /** The turn had to change them (a server refused the thinking level): keep these for the session. */
  onCallOptions?: (options: CallOptions) => void;
  session: TurnHistory;
  /** The tools, or a function read before every step when the set can change during a turn (MCP servers connecting). */
  tools: readonly AnyTool[] | (() => readonly AnyTool[]);
  /** The system prompt; the same for every step of a session, so the provider can cache it. */
  instructions: () => string;
  /**
   * Sent after the history at the end of every request and never stored (the task list: see
   * task-list-note.ts). Rebuilt before every step, so a todo_write on step one is visible to step two.
   */
  wireTail?: () => readonly ModelMessage[];
  /**
   * The settings a turn reads: `pruneAtTokens` (estimated tokens of conversation past which the
   * request is pruned, unless the window allows less; the local history never is), the step cap,
   * and the retry count and backoff.
   */
  settings: Pick<Settings, "pruneAtTokens" | "maxSteps" | "maxRetries" | "retryBaseMs" | "baseURL" | "api" | "apiKeySource" | "provider" | "client">;
  /** The model's context window: each request is budgeted to fit it, and a refusal teaches it. */
  window: ContextWindow;
  /** How the history's images go out (wire-images.ts); without it each is a line saying it is not sent. */
  images?: WireImages & { refused(): string };
  /** Where the turn's events go (the tool calls report theirs through it too). */
  emit: EventSink;
  /**
   * How the person picks up a turn cut short (the step cap, the output limit), as the words after
   * "or": the interactive loop's GO_ON_INTERACTIVE by default; a headless run names its command.
   */
  goOn?: string;
};

/** The way on after a turn cut short, in the interactive loop: say so at the prompt. */
export const GO_ON_INTERACTIVE = "ask shiro to continue";
/** The way on after a headless turn cut short: run again on the same session. */
export const GO_ON_HEADLESS = 'continue with shiro -c -p "go on"';

export type TurnResult = {
  status: TurnStatus;
  steps: number;
  usage: Usage;
  error?: string;
  /** The last step's output was cut off at the server's output limit (finish reason `length`). */
  truncated?: boolean;
  /** What the turn added after the user message, as the session now holds it. */
  messages: ModelMessage[];
};

/**
 * Runs one user turn: steps until the model stops calling tools, the step cap is reached, the
 * signal aborts or the provider fails for good. Retries a step only when nothing has been shown
 * yet, so no text is ever said twice. Every exit leaves a history whose tool calls all have
 * results. Emits a single `done` event at the end; never throws for provider or tool failures.
 */
export async function runTurn(opts: TurnOptions): Promise<TurnResult> {
  const { session } = opts;
  const startLength = session.history.length;
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let costStated = true;
  const { settings } = opts;
  const goOn = opts.goOn ?? GO_ON_INTERACTIVE;
  let callOptions = opts.callOptions;
  let steps = 0;
  let status: TurnStatus = "success";
  let errorMessage: string | undefined;
  let compactedReported = false;
  let inlinedThisTurn = false;
  let truncated = false;
  /** The turn is over: `status` says how. */
  let ended = false;
  /** The step about to run is a new attempt at one that failed before it showed anything. */
  let retrying = false;
  let attempt = 1;
  let overflowRetried = false;
  let overflowError: string | undefined;
  /** Images in the request last sent: a 400 about images is then the model refusing them. */
  let imagesSent = 0;

  const currentTools = () => (typeof opts.tools === "function" ? opts.tools() : opts.tools);
  // What the user saw of each call's end (a denial's words, a result's summary), by call id, kept
  // with its result for a resumed session's replay and `shiro sessions show`.
  const notes = new Map<string, ResultNote>();
  // The calls shown (tool-call) and not yet ended: one cut short by the end of its step reports
  // nothing more (tool-call.ts), so the turn's end reports it, as the history repair closes it.
  const open = new Map<string, { tool: string; subject?: string }>();
  const emit: EventSink = (event) => {
    const note = resultNote(event);
    if (note && (event.type === "tool-denied" || event.type === "tool-result")) notes.set(event.id, note);
    if (event.type === "tool-call") open.set(event.id, { tool: event.tool, ...(event.subject ? { subject: event.subject } : {}) });
    else if (event.type === "tool-result" || event.type === "tool-error" || event.type === "tool-denied") open.delete(event.id);
    opts.emit(event);
  };

  /** One step's request (next-request.ts), and the `compacted` event once per turn. */
  const prepare = (toolDefs: readonly AnyTool[]): PreparedRequest => {
    const request = prepareRequest({ history: session.history, instructions: opts.instructions(), tools: toolDefs, window: opts.window.info, pruneAtTokens: settings.pruneAtTokens, tail: opts.wireTail?.() ?? [] });
    const compacted = compactedReported ? undefined : compactedEvent(request.report);
    if (compacted) {
      opts.emit(compacted); // once per turn, not per step
      compactedReported = true;
      // Pruning cannot be blocked (and never changes the saved history): PreCompact is told, not asked.
      if (opts.hooks?.has("PreCompact")) void opts.hooks.fire("PreCompact", { trigger: "auto", custom_instructions: "" }, { onRun: reportTo(opts.emit) }).catch(() => {});
    }
    const wired = imagesOnWire(request.messages, opts.images);
    imagesSent = wired.sent;
    return { ...request, messages: wired.messages };
  };

  /** A step that ran (well, or failed after showing something): booked, appended, and judged. True: the turn goes on. */
  const settle = (outcome: StepOutcome, wireTokens: number): boolean => {
    usage.inputTokens += outcome.usage.inputTokens;
    usage.outputTokens += outcome.usage.outputTokens;
    if (outcome.usage.cachedInputTokens) usage.cachedInputTokens = (usage.cachedInputTokens ?? 0) + outcome.usage.cachedInputTokens;
    if (outcome.usage.reasoningTokens) usage.reasoningTokens = (usage.reasoningTokens ?? 0) + outcome.usage.reasoningTokens;
    // The server's own cost counts only while every step of the turn stated one.
    costStated &&= outcome.usage.costUsd !== undefined;
    if (costStated) usage.costUsd = (usage.costUsd ?? 0) + outcome.usage.costUsd!;
    else delete usage.costUsd;
    session.append(withResultNotes(outcome.messages, notes), outcome.usage);
    opts.emit({ type: "step", step: steps, usage: outcome.usage, wireTokens });
    ended = true;
    if (outcome.aborted || opts.signal.aborted) {
      status = "interrupted";
      return false;
    }
    if (outcome.error) {
      status = "error";
      errorMessage = overflowError ?? (imagesSent > 0 && opts.images && isImageRefusal(outcome.error) ? opts.images.refused() : withNextStep(describeProviderError(outcome.error), settings).message);
      opts.emit({ type: "error", message: errorMessage });
      return false;
    }
    truncated = outcome.truncated !== undefined;
    if (outcome.truncated && !outcome.truncated.usable) {
      // Nothing to show for the step but a cut: not an answer.
      status = "error";
      errorMessage = CUT_OFF_EMPTY;
      opts.emit({ type: "error", message: errorMessage });
      return false;
    }
    if (!outcome.wantsMore) {
      if (truncated) opts.emit({ type: "notice", message: cutOffNotice(goOn) });
      return false;
    }
    ended = false;
    return true;
  };

  for (;;) {
    if (!retrying) {
      if (opts.signal.aborted) {
        status = "interrupted";
        break;
      }
      if (steps >= settings.maxSteps) {
        status = "step-cap";
        errorMessage = `stopped after ${plural(settings.maxSteps, "step")} (the step cap). Raise it with --max-steps, or ${goOn}.`;
        opts.emit({ type: "error", message: errorMessage });
        break;
      }
      steps++;
      attempt = 1;
      overflowRetried = false;
      overflowError = undefined;
    }
    retrying = false;
    // One run of steps: a single SDK call that goes on while each step wants another and nothing
    // the call was set up with has to change (the tools, the options). A tool call still running
    // when its step is cut short reports no result (tool-call.ts); the repair closes it.
    let runOpen = true;
    const toolDefs = currentTools();
    const tools = toSdkTools(toolDefs, { root: opts.root, cwd: opts.cwd, signal: opts.signal, emit, approve: opts.approve, redact: opts.redact, stepOpen: () => runOpen, journal: opts.journal, ...(opts.hooks ? { hooks: opts.hooks } : {}), ...(opts.images ? { images: opts.images.store } : {}) });
    let request = prepare(toolDefs);
    let failed: StepOutcome | undefined;
    await runSteps({
      model: opts.model,
      callOptions: request.budget.outputTokens === undefined ? callOptions : { ...callOptions, maxOutputTokens: request.budget.outputTokens },
      instructions: request.instructions,
      messages: request.messages,
      tools,
      toolDefs,
      signal: opts.signal,
      emit,
      onStep: (outcome) => {
        // Failed before anything was shown: tried again below (nothing was said that a retry would repeat).
        if (outcome.error && !outcome.aborted && !outcome.sawOutput) {
          failed = outcome;
          return false;
        }
        if (!settle(outcome, request.report.tokensAfter)) return false;
        // The call goes on while what it was set up with holds: the tools, and the output limit (the window's).
        return !opts.signal.aborted && steps < settings.maxSteps && currentTools() === toolDefs && opts.window.info.requestOutputTokens === request.budget.outputTokens;
      },
      ...(session.inProgress ? { onProgress: (messages: ModelMessage[]) => session.inProgress!(messages) } : {}),
      nextRequest: () => {
        steps++;
        attempt = 1;
        overflowRetried = false;
        overflowError = undefined;
        request = prepare(toolDefs);
        return { instructions: request.instructions, messages: request.messages };
      },
    });
    runOpen = false;
    if (ended) break;
    if (!failed) continue; // the run stopped between steps (tools or options changed, the SDK stopped): the next step starts a new one

    // The step failed before it showed anything: try it again when that can help (recovery.ts).
    const { instructions, budget, report } = request;
    const decision = recover({
      error: failed.error,
      state: { inlined: inlinedThisTurn, overflowRetried, attempt },
      callOptions,
      settings,
      modelId: typeof opts.model === "string" ? opts.model : opts.model.modelId,
      window: opts.window,
      sent: { requestTokens: report.tokensAfter + budget.overheadTokens, conversationTokens: report.tokensAfter },
      fitsNow: () => {
        const budgeted = (pruneAtTokens: number) => prepareRequest({ history: session.history, instructions, tools: toolDefs, window: opts.window.info, pruneAtTokens, tail: [] });
        if (budgeted(settings.pruneAtTokens).report.fits) return { fits: true };
        const prompt = session.history.findLast((m) => m.role === "user");
        return { fits: false, promptTokens: prompt ? estimateTokens([prompt]) : 0, roomTokens: requestBudget(opts.window.info, { pruneAtTokens: Number.POSITIVE_INFINITY, instructions, tools: toolDefs }).conversationTokens };
      },
    });
    switch (decision.action) {
      case "inline":
        inlinedThisTurn = true;
        session.replace(inlineHistory(session.history));
        opts.emit({ type: "notice", message: decision.notice });
        retrying = true;
        continue;
      case "prune-harder":
        overflowRetried = true;
        opts.emit({ type: "notice", message: decision.notice });
        retrying = true;
        continue;
      case "drop-reasoning":
        callOptions = decision.callOptions;
        opts.onCallOptions?.(callOptions);
        opts.emit({ type: "notice", message: decision.notice });
        retrying = true;
        continue;
      case "back-off":
        opts.emit({ type: "notice", message: decision.notice, retryInMs: decision.delayMs });
        if (await waitToRetry(decision.delayMs, opts.signal)) {
          attempt++;
          retrying = true;
          continue;
        }
        // Interrupted while waiting: the step ends as it failed, and the turn as interrupted.
        failed.aborted = true;
        break;
      case "fail":
        overflowError = decision.message;
        break;
    }
    settle(failed, report.tokensAfter);
    break;
  }

  // Whatever happened, the stored history must be sendable next time.
  const closed = closeDanglingToolCalls(session.history);
  if (closed !== session.history) session.replace(closed);
  for (const [id, call] of open) opts.emit({ type: "tool-result", id, ...call, summary: "interrupted", output: INTERRUPTED_RESULT });
  opts.emit({ type: "done", status, steps, usage });
  return { status, steps, usage, ...(errorMessage ? { error: errorMessage } : {}), ...(truncated ? { truncated } : {}), messages: session.history.slice(startLength) };
}

/** Said when the turn's answer stops at the server's output limit. */
export function cutOffNotice(goOn = GO_ON_INTERACTIVE): string {
  return `the answer was cut off at the output limit; ${goOn}, or use a model with a larger output limit`;
}

/** The error when a step was cut off before any text or runnable tool call. */
export const CUT_OFF_EMPTY = "the answer was cut off at the output limit before any text or tool call";
