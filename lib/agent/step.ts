import { InvalidToolInputError, NoSuchToolError, type LanguageModel, type LanguageModelUsage, type ModelMessage, type ToolSet } from "ai";
import { modelStep, type ModelStepOptions, type StepEnd, type StepPart, type StepRequest } from "./model-steps.ts";
import { rebuildMessages, withKeepableInputs, withReasoningDetails, withReworded } from "./response-messages.ts";
import type { EventSink, Usage } from "../events.ts";
import { subjectOf, type AnyTool } from "../tools/define.ts";
import type { CallOptions } from "../provider/call-options.ts";
import { REASONING_DETAILS_KEY } from "../provider/reasoning-details.ts";
import { ERROR_CHUNK_USAGE_KEY, REPORTED_COST_KEY, type ErrorChunkUsage } from "../provider/compatible-usage.ts";
import { IncompleteStreamError } from "../provider/provider-error.ts";

export type StepOutcome = {
  /** Messages to append to the history: the assistant's message and the tool results. */
  messages: ModelMessage[];
  usage: Usage;
  /** True when the model called tools and expects another step. */
  wantsMore: boolean;
  /** Anything was shown to the user (text, reasoning, a tool call): a retry would repeat it. */
  sawOutput: boolean;
  aborted: boolean;
  /**
   * The server stopped the output at its token limit (finish reason `length`). `usable` then says
   * whether anything of use came before the cut: text, or a tool call that can run.
   */
  truncated?: { usable: boolean };
  error?: unknown;
};

/** What one step sends: the system prompt and the messages (the pruned history and its tail). */
export type { StepRequest };

export type StepsInput = StepRequest & {
  model: LanguageModel;
  callOptions: CallOptions;
  tools: ToolSet;
  toolDefs: readonly AnyTool[];
  signal: AbortSignal;
  emit: EventSink;
  /**
   * A step ended, well or not: its outcome, in order, before anything else is sent. True to go on
   * to the next step in this same run; model-steps.ts goes on only when the step's tool calls all have
   * results, and never after a failed step.
   */
  onStep: (outcome: StepOutcome) => boolean;
  /** The request of each step after the first, asked for just before it is sent. */
  nextRequest: () => StepRequest;
  /**
   * The step so far (its text and the calls it made, with the results already in), each time it
   * makes a call: the session keeps it on record until the step's own messages replace it.
   */
  onProgress?: (messages: ModelMessage[]) => void;
};

/**
 * Requests to the model and the tool calls they make, for as many steps as go on, one
 * model-steps.ts step at a time (one SDK model call per step; the tools run there). Top to
 * bottom: a step's parts are read as they come, its end gives its messages and usage, the
 * caller takes the outcome (`onStep`), and when the caller and the step both say so the next
 * request is asked for (`nextRequest`), so pruning and the task list stay per step. Never throws:
 * provider failures come back in an outcome's `error`, and an aborted step still reports what was
 * said so far, so the history stays complete (dangling calls are closed by the repair before the
 * next request). The stream gives `tool-start` and `tool-call`; a call that reaches a tool
 * reports the rest itself (tool-call.ts), and one the SDK could not hand to a tool gets its
 * `tool-error` here.
 */
export async function runSteps(input: StepsInput): Promise<void> {
  const byName = new Map(input.toolDefs.map((t) => [t.name, t]));
  const options: ModelStepOptions = { ...input.callOptions, model: input.model, tools: input.tools, abortSignal: input.signal };
  let request: StepRequest = { instructions: input.instructions, messages: input.messages };
  for (;;) {
    const { outcome, goOn } = await readStep(modelStep(options, request), input, byName);
    if (!input.onStep(outcome) || !goOn) return;
    request = input.nextRequest();
  }
}

/** One step read to its end: its outcome, and whether the step itself allows another after it. */
async function readStep(parts: AsyncGenerator<StepPart, StepEnd>, input: StepsInput, byName: ReadonlyMap<string, AnyTool>): Promise<{ outcome: StepOutcome; goOn: boolean }> {
  const { emit } = input;
  const state = newStep();
  const { outcome } = state;
  /** The step so far, for the session's record (StepsInput.onProgress). */
  const progress = () => input.onProgress?.(withKeepableInputs(rebuildMessages(state.partialText, state.calls, state.results)));
  let finished: ModelMessage[] | undefined;
  let end: StepEnd = { goOn: false };
  try {
    for (;;) {
      const next = await parts.next();
      if (next.done) {
        end = next.value;
        break;
      }
      const part = next.value;
      switch (part.type) {
        case "text-delta":
          if (!part.text) break;
          outcome.sawOutput = true;
          state.partialText += part.text;
          emit({ type: "text", text: part.text });
          break;
        case "reasoning-delta":
          if (!part.text) break;
          outcome.sawOutput = true;
          emit({ type: "reasoning", text: part.text });
          break;
        case "tool-input-start":
          outcome.sawOutput = true;
          emit({ type: "tool-start", id: part.id, tool: part.toolName });
          break;
        case "tool-call":
          outcome.sawOutput = true;
          state.calls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
          emit({ type: "tool-call", id: part.toolCallId, tool: part.toolName, input: part.input, subject: subjectOf(byName.get(part.toolName), part.input) });
          if (part.invalid) state.unrunnable.add(part.toolCallId); // no tool runs it, so its error is reported here
          if (part.invalid && NoSuchToolError.isInstance(part.error)) state.reworded.set(part.toolCallId, noSuchToolText(part.toolName, input.toolDefs));
          else if (part.invalid && InvalidToolInputError.isInstance(part.error)) state.reworded.set(part.toolCallId, unreadableInputText(part.toolName, part.error.toolInput));
          progress();
          break;
        case "tool-result": {
          const output = typeof part.output === "string" ? part.output : JSON.stringify(part.output);
          state.results.push({ toolCallId: part.toolCallId, toolName: part.toolName, output, error: false });
          progress(); // a call that finished stays finished on record, whatever happens to the others
          break;
        }
        case "tool-error": {
          const message = state.reworded.get(part.toolCallId) ?? errorText(part.error);
          state.results.push({ toolCallId: part.toolCallId, toolName: part.toolName, output: message, error: true });
          if (state.unrunnable.has(part.toolCallId)) emit({ type: "tool-error", id: part.toolCallId, tool: part.toolName, error: message });
          progress();
          break;
        }
        case "finish-step": {
          const details = part.providerMetadata?.shiro?.[REASONING_DETAILS_KEY] as unknown[] | undefined;
          // A step that ended on an error chunk still used the tokens that chunk reported (lib/provider/compatible-usage.ts).
          const billed = part.providerMetadata?.shiro?.[ERROR_CHUNK_USAGE_KEY] as ErrorChunkUsage | undefined;
          outcome.usage = part.usage.inputTokens === undefined && billed ? billed : toUsage(part.usage);
          const reported = part.providerMetadata?.shiro?.[REPORTED_COST_KEY];
          if (typeof reported === "number") outcome.usage = { ...outcome.usage, costUsd: reported };
          outcome.wantsMore = part.finishReason === "tool-calls" || state.calls.length > 0;
          if (part.finishReason === "length") {
            // Cut off: only a call that can run is worth another step; a call cut mid-arguments would be sent again, cut again.
            const runnable = state.calls.some((c) => !state.unrunnable.has(c.toolCallId));
            outcome.truncated = { usable: runnable || state.partialText.trim() !== "" };
            outcome.wantsMore = runnable;
          }
          // A stream that stops without its completion event is not an answer, even if the SDK keeps the partial text.
          if (part.finishReason === "interrupted" || part.finishReason === "error") outcome.error ??= new IncompleteStreamError();
          finished = withReasoningDetails(withKeepableInputs(withReworded(part.messages, state.reworded)), details);
          break;
        }
        case "error":
          outcome.error ??= part.error;
          break;
        case "abort":
          outcome.aborted = true;
          break;
        default:
          break; // the call's start
      }
    }
  } catch (error) {
    // Not expected (model-steps.ts turns failures into parts); the step ends with what it said so far.
    if (!input.signal.aborted) outcome.error ??= error;
    await parts.return({ goOn: false }).catch(() => {});
  }
  if (input.signal.aborted) outcome.aborted = true;
  // A step the stream left open (an abort, a failure) ends here with what it said so far.
  if (!finished && !outcome.aborted) outcome.error ??= new IncompleteStreamError();
  if (!finished && end.callUsage) outcome.usage = toUsage(end.callUsage);
  if (outcome.aborted || outcome.error) {
    outcome.wantsMore = false;
    outcome.messages = withKeepableInputs(rebuildMessages(state.partialText, state.calls, state.results));
  } else outcome.messages = finished ?? [];
  return { outcome, goOn: end.goOn };
}

/** What the reader keeps of the step in progress: what was streamed, to rebuild the assistant message when the SDK cannot give it (abort, error). */
type StepState = {
  outcome: StepOutcome;
  partialText: string;
  calls: { toolCallId: string; toolName: string; input: unknown }[];
  results: { toolCallId: string; toolName: string; output: string; error: boolean }[];
  /** Calls the SDK could not hand to a tool (unknown name, unreadable arguments). */
  unrunnable: Set<string>;
  /** Errors shiro words itself instead of the SDK (a call of a tool not offered), by call id. */
  reworded: Map<string, string>;
};

/** The SDK's usage as the session counts it. */
function toUsage(usage: LanguageModelUsage): Usage {
  return {
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
    ...(usage.inputTokenDetails?.cacheReadTokens ? { cachedInputTokens: usage.inputTokenDetails.cacheReadTokens } : {}),
    ...(usage.outputTokenDetails?.reasoningTokens ? { reasoningTokens: usage.outputTokenDetails.reasoningTokens } : {}),
  };
}

function newStep(): StepState {
  return {
    outcome: { messages: [], usage: { inputTokens: 0, outputTokens: 0 }, wantsMore: false, sawOutput: false, aborted: false },
    partialText: "",
    calls: [],
    results: [],
    unrunnable: new Set(),
    reworded: new Map(),
  };
}

/**
 * The result of a call of a tool the model was not given (a subagent calling bash, a made-up
 * name): what it called and what it has, so its next step can use one of those.
 */
export function noSuchToolText(name: string, tools: readonly Pick<AnyTool, "name">[]): string {
  const have = tools.map((t) => t.name);
  return have.length === 0
    ? `There is no tool named "${name}" here, and no tools are available: answer in text.`
    : `There is no tool named "${name}" here. The tools available are: ${have.join(", ")}. Use one of them, or answer in text.`;
}

/** Longest part of unreadable arguments quoted back to the model. */
const QUOTED_INPUT_CHARS = 200;

/**
 * The result of a call whose arguments the SDK could not read as JSON (cut off, or not JSON at
 * all): what went wrong and what to do, in words the model and the user can act on, instead of
 * the SDK's error names. Nothing ran.
 */
export function unreadableInputText(name: string, raw: string): string {
  const quoted = raw.length > QUOTED_INPUT_CHARS ? `${raw.slice(0, QUOTED_INPUT_CHARS)}… (${raw.length} characters)` : raw;
  return `The arguments of this ${name} call are not valid JSON, so it did not run: ${JSON.stringify(quoted)}. Send the call again with its arguments as one complete JSON object.`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
