import { experimental_streamLanguageModelCall as streamModelCall, type LanguageModel, type LanguageModelUsage, type ModelMessage, type ToolSet } from "ai";
import type { CallOptions } from "../provider/call-options.ts";
import { responseMessages, type StepContent } from "./response-messages.ts";

/**
 * The agent loop's steps on the SDK's single-call API: one model call per step
 * (`experimental_streamLanguageModelCall`, which converts the prompt, prepares the tools, parses
 * tool calls and normalises stream errors), the tools run here, and the next step asked for.
 *
 * It takes the place of `streamText`, which does the same with much more around it (a result
 * object of teed and stitched streams, the step and telemetry records, output parsing): about
 * 1.1 ms of CPU a step that shiro used none of. What it gives the reader is
 * the subset of `streamText`'s parts that lib/agent/step.ts reads, with the same meaning, so the
 * turn's logic is unchanged. See docs/performance.md.
 */
export type StepPart =
  | { type: "start-step" }
  | { type: "text-delta"; text: string }
  | { type: "reasoning-delta"; text: string }
  | { type: "tool-input-start"; id: string; toolName: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown; invalid?: boolean; error?: unknown }
  | { type: "tool-result"; toolCallId: string; toolName: string; output: unknown }
  | { type: "tool-error"; toolCallId: string; toolName: string; error: unknown }
  | { type: "finish-step"; finishReason: string; usage: LanguageModelUsage; providerMetadata?: Record<string, Record<string, unknown>> }
  | { type: "error"; error: unknown }
  | { type: "abort" };

export type StepRequest = { instructions: string; messages: ModelMessage[] };

export type ModelStepsOptions = CallOptions &
  StepRequest & {
    model: LanguageModel;
    tools: ToolSet;
    abortSignal: AbortSignal;
    /** Asked after step k when its calls all have results: true stops. */
    stopWhen: (stepNumber: number) => Promise<boolean>;
    /** Step k's request (k ≥ 1); undefined: the last request and the messages of the step before. */
    prepareStep: (at: { stepNumber: number }) => StepRequest | undefined;
    /** The model's answer of a step has ended (its tools may still run). */
    onLanguageModelCallEnd: (event: { usage: LanguageModelUsage }) => void;
    /** A step ended with its messages (the assistant's, then the tool results). */
    onStepFinish: (step: { stepNumber: number; response: { messages: ModelMessage[] } }) => void;
  };

/** A step's end: whether the loop may go on to another. */
type StepEnd = "go-on" | "stop";

/** The parts of the steps, in order; the stream ends after the last step, an error or an abort. */
export async function* modelSteps(options: ModelStepsOptions): AsyncGenerator<StepPart> {
  let request: StepRequest = { instructions: options.instructions, messages: options.messages };
  for (let stepNumber = 0; ; stepNumber++) {
    if (stepNumber > 0) request = options.prepareStep({ stepNumber }) ?? request;
    const said: ModelMessage[] = [];
    const end = yield* oneStep(options, request, stepNumber, said);
    if (end === "stop" || (await options.stopWhen(stepNumber))) return;
    request = { instructions: request.instructions, messages: [...request.messages, ...said] };
  }
}

async function* oneStep(options: ModelStepsOptions, request: StepRequest, stepNumber: number, said: ModelMessage[]): AsyncGenerator<StepPart, StepEnd> {
  const signal = options.abortSignal;
  if (signal.aborted) return yield* aborted();
  let content: StepContent[] = [];
  let call: Awaited<ReturnType<typeof streamModelCall>>;
  try {
    call = await streamModelCall({
      model: options.model,
      tools: options.tools,
      instructions: request.instructions,
      messages: request.messages,
      abortSignal: signal,
      ...(options.providerOptions ? { providerOptions: options.providerOptions as never } : {}),
      ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
      onLanguageModelCallEnd: (event) => {
        content = event.content as StepContent[];
        options.onLanguageModelCallEnd({ usage: event.usage });
      },
    });
  } catch (error) {
    if (signal.aborted) return yield* aborted();
    yield { type: "error", error };
    return "stop";
  }
  yield { type: "start-step" };

  const results = new ToolResults(options.tools, request.messages, signal);
  try {
    let finish: { finishReason: string; usage: LanguageModelUsage; providerMetadata?: Record<string, Record<string, unknown>> } | undefined;
    let failed = false;
    let calls = 0;
    try {
      for await (const part of call.stream) {
        if (signal.aborted) return yield* aborted();
        switch (part.type) {
          case "text-delta":
            yield { type: "text-delta", text: part.text };
            break;
          case "reasoning-delta":
            yield { type: "reasoning-delta", text: part.text };
            break;
          case "tool-input-start":
            yield { type: "tool-input-start", id: part.id, toolName: part.toolName };
            break;
          case "tool-call":
            if (part.providerExecuted) break;
            calls++;
            yield { type: "tool-call", toolCallId: part.toolCallId, toolName: part.toolName, input: part.input, ...(part.invalid ? { invalid: true, error: part.error } : {}) };
            if (!part.invalid) results.start(part);
            break;
          case "tool-error":
            // The SDK's answer to a call no tool can take (an unknown name, unreadable arguments).
            if (part.providerExecuted) break;
            results.add({ type: "tool-error", toolCallId: part.toolCallId, toolName: part.toolName, input: part.input, error: part.error });
            break;
          case "model-call-end":
            finish = { finishReason: part.finishReason, usage: part.usage, ...(part.providerMetadata ? { providerMetadata: part.providerMetadata as never } : {}) };
            break;
          case "error":
            failed = true;
            yield { type: "error", error: part.error };
            break;
          default:
            break;
        }
        yield* results.ready();
      }
      // The answer is over: the tools still running are waited for, each result given as it comes.
      while (results.running()) {
        const next = await results.next();
        if (signal.aborted) return yield* aborted();
        if (next) yield next;
      }
    } catch (error) {
      if (signal.aborted) return yield* aborted();
      yield { type: "error", error };
      return "stop";
    }
    // A stream that ended without its finish part leaves the step open: the reader calls it incomplete.
    if (!finish) return "stop";
    const messages = responseMessages([...content, ...results.parts]);
    said.push(...messages);
    options.onStepFinish({ stepNumber, response: { messages } });
    yield { type: "finish-step", ...finish };
    const answered = results.parts.length === calls;
    return calls > 0 && answered && !failed && finish.finishReason !== "interrupted" && finish.finishReason !== "error" ? "go-on" : "stop";
  } finally {
    results.close();
  }
}

async function* aborted(): AsyncGenerator<StepPart, StepEnd> {
  yield { type: "abort" };
  return "stop";
}

type ResultPart = Extract<StepContent, { type: "tool-result" | "tool-error" }>;

/** The step's tool calls being run, and their results in the order they finished. */
class ToolResults {
  readonly parts: ResultPart[] = [];
  /** Calls whose tool has not finished. */
  private pending = 0;
  private readonly done: ResultPart[] = [];
  private wake: (() => void) | undefined;

  constructor(
    private readonly tools: ToolSet,
    private readonly messages: ModelMessage[],
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener("abort", this.onAbort, { once: true });
  }

  private readonly onAbort = () => this.wake?.();

  /** The step is over: an abort later is no business of this one. */
  close(): void {
    this.signal.removeEventListener("abort", this.onAbort);
  }

  start(call: { toolCallId: string; toolName: string; input: unknown }): void {
    const tool = this.tools[call.toolName];
    const run = async (): Promise<ResultPart> => {
      try {
        const output = await tool!.execute!(call.input as never, { toolCallId: call.toolCallId, messages: this.messages, abortSignal: this.signal } as never);
        return { type: "tool-result", toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, output };
      } catch (error) {
        return { type: "tool-error", toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, error };
      }
    };
    this.pending++;
    void run().then((part) => {
      this.pending--;
      this.add(part);
    });
  }

  add(part: ResultPart): void {
    this.parts.push(part);
    this.done.push(part);
    this.wake?.();
  }

  running(): boolean {
    return this.pending > 0 || this.done.length > 0;
  }

  /** The results finished since last asked, as parts for the reader. */
  *ready(): Generator<StepPart> {
    while (this.done.length > 0) yield asPart(this.done.shift()!);
  }

  /** The next result to finish (undefined when woken by an abort). */
  async next(): Promise<StepPart | undefined> {
    if (this.signal.aborted) return undefined;
    if (this.done.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
    const part = this.done.shift();
    return part ? asPart(part) : undefined;
  }
}

function asPart(part: ResultPart): StepPart {
  return part.type === "tool-result"
    ? { type: "tool-result", toolCallId: part.toolCallId, toolName: part.toolName, output: part.output }
    : { type: "tool-error", toolCallId: part.toolCallId, toolName: part.toolName, error: part.error };
}
