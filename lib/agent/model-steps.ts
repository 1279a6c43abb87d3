import { experimental_streamLanguageModelCall as streamModelCall, type LanguageModel, type LanguageModelUsage, type ModelMessage, type ToolSet } from "ai";
import type { CallOptions } from "../provider/call-options.ts";
import { responseMessages, type StepContent } from "./response-messages.ts";

/**
 * One step of the agent loop on the SDK's single-call API: one model call
 * (`experimental_streamLanguageModelCall`, which converts the prompt, prepares the tools, parses
 * tool calls and normalises stream errors), and the tools it calls run here. The caller
 * (lib/agent/step.ts) reads a step's parts, takes its end, and asks for the next step itself.
 *
 * It takes the place of `streamText`, which does the same with much more around it (a result
 * object of teed and stitched streams, the step and telemetry records, output parsing): about
 * 1.1 ms of CPU a step that shiro used none of. Its parts are the subset of `streamText`'s that
 * step.ts reads, with the same meaning; a step's end (`finish-step`) carries the step's messages
 * for the history. See docs/performance.md.
 */
export type StepPart =
  | { type: "start-step" }
  | { type: "text-delta"; text: string }
  | { type: "reasoning-delta"; text: string }
  | { type: "tool-input-start"; id: string; toolName: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown; invalid?: boolean; error?: unknown }
  | { type: "tool-result"; toolCallId: string; toolName: string; output: unknown }
  | { type: "tool-error"; toolCallId: string; toolName: string; error: unknown }
  | {
      type: "finish-step";
      finishReason: string;
      usage: LanguageModelUsage;
      providerMetadata?: Record<string, Record<string, unknown>>;
      /** The step's messages: the assistant's, then the tool results (response-messages.ts). */
      messages: ModelMessage[];
    }
  | { type: "error"; error: unknown }
  | { type: "abort" };

export type StepRequest = { instructions: string; messages: ModelMessage[] };

export type ModelStepOptions = CallOptions & {
  model: LanguageModel;
  tools: ToolSet;
  abortSignal: AbortSignal;
};

/**
 * How a step ended. `goOn`: its calls all have results and nothing failed, so another step may
 * follow (the caller decides). `callUsage`: what the model call used, known once its answer ended,
 * also for a step cut short afterwards (Ctrl-C during a command), which was paid for all the same.
 */
export type StepEnd = { goOn: boolean; callUsage?: LanguageModelUsage };

/** The parts of one step, in order; it ends after its `finish-step`, an error or an abort. */
export async function* modelStep(options: ModelStepOptions, request: StepRequest): AsyncGenerator<StepPart, StepEnd> {
  const signal = options.abortSignal;
  const end: StepEnd = { goOn: false };
  if (signal.aborted) return yield* aborted(end);
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
        end.callUsage = event.usage;
      },
    });
  } catch (error) {
    if (signal.aborted) return yield* aborted(end);
    yield { type: "error", error };
    return end;
  }
  yield { type: "start-step" };

  const results = new ToolResults(options.tools, request.messages, signal);
  try {
    let finish: { finishReason: string; usage: LanguageModelUsage; providerMetadata?: Record<string, Record<string, unknown>> } | undefined;
    let failed = false;
    let calls = 0;
    try {
      for await (const part of call.stream) {
        if (signal.aborted) return yield* aborted(end);
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
        if (signal.aborted) return yield* aborted(end);
        if (next) yield next;
      }
    } catch (error) {
      if (signal.aborted) return yield* aborted(end);
      yield { type: "error", error };
      return end;
    }
    // A stream that ended without its finish part leaves the step open: the reader calls it incomplete.
    if (!finish) return end;
    yield { type: "finish-step", ...finish, messages: responseMessages([...content, ...results.parts]) };
    const answered = results.parts.length === calls;
    end.goOn = calls > 0 && answered && !failed && finish.finishReason !== "interrupted" && finish.finishReason !== "error";
    return end;
  } finally {
    results.close();
  }
}

async function* aborted(end: StepEnd): AsyncGenerator<StepPart, StepEnd> {
  yield { type: "abort" };
  end.goOn = false;
  return end;
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
