import { InvalidToolInputError, NoSuchToolError, type AssistantModelMessage, type LanguageModel, type LanguageModelUsage, type ModelMessage, type ToolSet } from "ai";
import { modelSteps, type StepRequest } from "./model-steps.ts";
import type { EventSink, Usage } from "../events.ts";
import { subjectOf, type AnyTool } from "../tools/define.ts";
import type { CallOptions } from "../provider/call-options.ts";
import { REASONING_DETAILS_KEY } from "../provider/reasoning-details.ts";
import { ERROR_CHUNK_USAGE_KEY, REPORTED_COST_KEY, type ErrorChunkUsage } from "../provider/compatible-usage.ts";
import { IncompleteStreamError } from "../provider/provider-error.ts";
import { MAX_SESSION_NESTING, nestedDeeperThan } from "../fs/nesting.ts";

/** Room for the record, the message and the part around a tool call's arguments within MAX_SESSION_NESTING. */
const MAX_INPUT_NESTING = MAX_SESSION_NESTING - 16;
const DEEP_INPUT_NOTE = `[arguments nested more than ${MAX_INPUT_NESTING} levels deep; not kept]`;

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
 * Requests to the model and the tool calls they make, for as many steps as go on, read from
 * model-steps.ts (one SDK model call per step; the tools run there). Each step's
 * request is the caller's (`nextRequest`, asked after `onStep` has taken the step before), so
 * pruning and the task list stay per step. Never throws: provider failures come back in an
 * outcome's `error`, and an aborted step still reports what was said so far, so the history stays
 * complete (dangling calls are closed by the repair before the next request). The stream gives
 * `tool-start` and `tool-call`; a call that reaches a tool reports the rest itself
 * (tool-call.ts), and one the SDK could not hand to a tool gets its `tool-error` here.
 */
export async function runSteps(input: StepsInput): Promise<void> {
  const { emit } = input;
  const byName = new Map(input.toolDefs.map((t) => [t.name, t]));
  // model-steps.ts waits on these between steps: `stopWhen` for the caller's word on step k, then
  // `prepareStep` for step k+1's request. The stream can run ahead of this reader, so each step's
  // word is given only once the reader has reached the step's end.
  const decided: PromiseWithResolvers<boolean>[] = [];
  const stepResults: PromiseWithResolvers<{ response: { messages: ModelMessage[] } }>[] = [];
  const decision = (k: number) => (decided[k] ??= Promise.withResolvers<boolean>());
  const stepResult = (k: number) => (stepResults[k] ??= Promise.withResolvers<{ response: { messages: ModelMessage[] } }>());
  /** Each step's model call, in order, as it ended: one call per step (the SDK's retries are off). */
  const callUsage: Usage[] = [];

  const stream = modelSteps({
    ...input.callOptions,
    model: input.model,
    instructions: input.instructions,
    messages: input.messages,
    tools: input.tools,
    abortSignal: input.signal,
    stopWhen: async (stepNumber) => !(await decision(stepNumber).promise),
    prepareStep: () => input.nextRequest(),
    // The model's answer has ended (its tools may still run): what it used is known now. A step cut
    // short before its end (Ctrl-C during a command) reports no usage of its own, but was paid for.
    onLanguageModelCallEnd: ({ usage }) => void callUsage.push(toUsage(usage)),
    onStepFinish: (step) => stepResult(step.stepNumber).resolve(step),
  });

  /** The step so far, for the session's record (StepsInput.onProgress). */
  const progress = (state: StepState) => input.onProgress?.(withKeepableInputs(rebuildMessages(state.partialText, state.calls, state.results)));
  let k = -1; // the step being read
  let step: StepState | undefined;
  /** The last finished step's outcome being made (it waits for the SDK's messages of the step). */
  let finishing: Promise<void> | undefined;
  let waitingForWord = false;
  const streamEnded = Promise.withResolvers<undefined>();
  /** The caller's word after the last step read was to stop. */
  let stopped = false;
  const finish = async (state: StepState, finished: boolean) => {
    const index = k;
    const outcome = state.outcome;
    if (input.signal.aborted) outcome.aborted = true;
    if (!finished && !outcome.aborted) outcome.error ??= new IncompleteStreamError();
    outcome.messages = [];
    if (finished && !outcome.aborted && !outcome.error) {
      try {
        // The SDK hands the step's messages over right after this part; a stream that ends first
        // (the SDK failed on the step's end) must not leave the turn waiting for them.
        const done = await Promise.race([stepResult(index).promise, streamEnded.promise]);
        if (!done) throw new IncompleteStreamError();
        const messages = done.response.messages as ModelMessage[];
        outcome.messages = withReasoningDetails(withKeepableInputs(withReworded(messages, state.reworded)), state.details);
      } catch (error) {
        outcome.error = error;
      }
    }
    if ((outcome.aborted || outcome.error) && !finished) outcome.usage = callUsage[index] ?? outcome.usage;
    if (outcome.aborted || outcome.error) {
      outcome.wantsMore = false;
      outcome.messages = withKeepableInputs(rebuildMessages(state.partialText, state.calls, state.results));
    }
    if (step === state) step = undefined;
    stopped = !input.onStep(outcome);
    decision(index).resolve(!stopped);
  };

  const open = () => {
    k++;
    return (step = newStep());
  };
  try {
    for await (const part of stream) {
      if (part.type === "start-step") {
        open();
        continue;
      }
      if (!STEP_PARTS.has(part.type)) continue; // the call's own start and finish, raw chunks, sources
      // Between a step's end and the word on it, or after the word to stop, the SDK may still report an
      // abort or an error on its way out: no step is left to own it (the turn reads the signal itself).
      if (!step && (stopped || waitingForWord)) continue;
      // An error before the step's start (the request itself failed) belongs to the step being asked for.
      const state = step ?? open();
      const { outcome } = state;
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
          progress(state);
          break;
        case "tool-result": {
          const output = typeof part.output === "string" ? part.output : JSON.stringify(part.output);
          state.results.push({ toolCallId: part.toolCallId, toolName: part.toolName, output, error: false });
          progress(state); // a call that finished stays finished on record, whatever happens to the others
          break;
        }
        case "tool-error": {
          const message = state.reworded.get(part.toolCallId) ?? errorText(part.error);
          state.results.push({ toolCallId: part.toolCallId, toolName: part.toolName, output: message, error: true });
          if (state.unrunnable.has(part.toolCallId)) emit({ type: "tool-error", id: part.toolCallId, tool: part.toolName, error: message });
          progress(state);
          break;
        }
        case "finish-step": {
          state.details = (part.providerMetadata?.shiro?.[REASONING_DETAILS_KEY] as unknown[] | undefined) ?? state.details;
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
          // Not awaited here: the reader goes on, so a stream that fails now is seen (and ends the wait above).
          step = undefined;
          waitingForWord = true;
          finishing = finish(state, true).finally(() => (waitingForWord = false));
          break;
        }
        case "error":
          outcome.error ??= part.error;
          break;
        case "abort":
          outcome.aborted = true;
          break;
        default:
          break;
      }
    }
  } catch (error) {
    streamEnded.resolve(undefined);
    await finishing;
    if (!step && stopped) return finishAll();
    const state = step ?? open();
    if (input.signal.aborted) state.outcome.aborted = true;
    else state.outcome.error ??= error;
  }
  streamEnded.resolve(undefined);
  await finishing;
  // A step the stream left open (an abort, a failure) ends here with what it said so far.
  if (step) await finish(step, false);
  finishAll();

  /** Nothing more will be read: an SDK still waiting for a word stops. */
  function finishAll() {
    for (const d of decided) d?.resolve(false);
  }
}

/** The parts that belong to a step: what is said in it, and how it ends. */
const STEP_PARTS = new Set<string>(["text-delta", "reasoning-delta", "tool-input-start", "tool-call", "tool-result", "tool-error", "finish-step", "error", "abort"]);

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
  /** OpenRouter's reasoning_details for this step (lib/provider/reasoning-details.ts), to send back. */
  details: unknown[] | undefined;
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
    details: undefined,
  };
}

/**
 * The messages with any tool call's arguments nested too deep for a session (lib/fs/nesting.ts)
 * replaced by a note. Only a broken or hostile model sends such arguments, and no tool accepts
 * them, but kept as they are they would make the session impossible to save, load or send again.
 * Returns the same array when there is nothing to replace.
 */
function withKeepableInputs(messages: ModelMessage[]): ModelMessage[] {
  const deep = (m: ModelMessage) =>
    m.role === "assistant" && typeof m.content !== "string" && m.content.some((p) => p.type === "tool-call" && nestedDeeperThan(p.input, MAX_INPUT_NESTING));
  if (!messages.some(deep)) return messages;
  return messages.map((m) =>
    m.role === "assistant" && typeof m.content !== "string" && deep(m)
      ? { ...m, content: m.content.map((p) => (p.type === "tool-call" && nestedDeeperThan(p.input, MAX_INPUT_NESTING) ? { ...p, input: DEEP_INPUT_NOTE } : p)) }
      : m,
  );
}

/**
 * The step's assistant message carrying the server's `reasoning_details`, where the compatible
 * client sends them back (as a field of that message in the next request), and where the
 * session file keeps them. Unchanged when there are none.
 */
function withReasoningDetails(messages: ModelMessage[], details: unknown[] | undefined): ModelMessage[] {
  if (!details || details.length === 0) return messages;
  return messages.map((m) =>
    m.role === "assistant" ? ({ ...m, providerOptions: { ...m.providerOptions, openaiCompatible: { ...m.providerOptions?.openaiCompatible, [REASONING_DETAILS_KEY]: details as never } } } as ModelMessage) : m,
  );
}

/** The assistant message and results as streamed, without provider item ids (sent inline). */
function rebuildMessages(
  text: string,
  calls: { toolCallId: string; toolName: string; input: unknown }[],
  results: { toolCallId: string; toolName: string; output: string; error: boolean }[],
): ModelMessage[] {
  const content: Exclude<AssistantModelMessage["content"], string> = [];
  if (text) content.push({ type: "text", text });
  for (const call of calls) content.push({ type: "tool-call", toolCallId: call.toolCallId, toolName: call.toolName, input: call.input ?? {} });
  if (content.length === 0) return [];
  const messages: ModelMessage[] = [{ role: "assistant", content }];
  const answered = results.filter((r) => calls.some((c) => c.toolCallId === r.toolCallId));
  if (answered.length > 0) {
    messages.push({
      role: "tool",
      content: answered.map((r) => ({
        type: "tool-result" as const,
        toolCallId: r.toolCallId,
        toolName: r.toolName,
        output: r.error ? { type: "error-text" as const, value: r.output } : { type: "text" as const, value: r.output },
      })),
    });
  }
  return messages;
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

/** The step's tool results with shiro's wording where it has its own (`reworded`, by call id). */
function withReworded(messages: ModelMessage[], reworded: ReadonlyMap<string, string>): ModelMessage[] {
  if (reworded.size === 0) return messages;
  return messages.map((m) =>
    m.role === "tool"
      ? {
          ...m,
          content: m.content.map((p) =>
            p.type === "tool-result" && reworded.has(p.toolCallId) ? { ...p, output: { type: "error-text" as const, value: reworded.get(p.toolCallId)! } } : p,
          ),
        }
      : m,
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
