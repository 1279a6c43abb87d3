// The agent loop's steps on the SDK's single-call API (lib/agent/model-steps.ts): what the turn
// reads from them, against a scripted model (no server): results in the history in the order of
// the calls, a stop that does not wait for a running tool, the answer to a call of no tool, and a
// step whose stream ends without its finish.
import { describe, expect, test } from "bun:test";
import { jsonSchema, type LanguageModel, type ModelMessage, type ToolSet } from "ai";
import { modelStep, type StepPart, type StepRequest } from "../../lib/agent/model-steps.ts";

type V4Part = Record<string, unknown>;
const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const finish = (unified: string): V4Part => ({ type: "finish", finishReason: { unified, raw: unified }, usage });
const call = (id: string, toolName: string, input: unknown): V4Part => ({ type: "tool-call", toolCallId: id, toolName, input: JSON.stringify(input) });
const text = (value: string): V4Part[] => [
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: value },
  { type: "text-end", id: "t" },
];

/** A model that answers each request with the next scripted stream, and keeps the prompts it got. */
function scriptedModel(steps: V4Part[][]): { model: LanguageModel; prompts: unknown[] } {
  const prompts: unknown[] = [];
  const model = {
    specificationVersion: "v4",
    provider: "scripted",
    modelId: "scripted-1",
    supportedUrls: {},
    doGenerate: async () => {
      throw new Error("not used");
    },
    doStream: async (options: { prompt: unknown }) => {
      prompts.push(options.prompt);
      const parts = steps.shift();
      if (!parts) throw new Error("no step left in the script");
      return { stream: new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) }) };
    },
  };
  return { model: model as unknown as LanguageModel, prompts };
}

const schema = jsonSchema<{ ms: number }>({ type: "object", properties: { ms: { type: "number" } } });
/** Tools by name, each an execute over `{ ms }`. */
const toolsOf = (executes: Record<string, (input: { ms: number }) => unknown>): ToolSet =>
  Object.fromEntries(Object.entries(executes).map(([name, execute]) => [name, { inputSchema: schema, execute }])) as unknown as ToolSet;

type RunOptions = { model: LanguageModel; tools: ToolSet; abortSignal?: AbortSignal; stopWhen?: (stepNumber: number) => Promise<boolean> };

/** Steps as lib/agent/step.ts runs them: each read to its end, the next sent with the history so far while the step and `stopWhen` allow. */
async function run(options: RunOptions) {
  const parts: StepPart[] = [];
  const histories: ModelMessage[][] = [];
  const stopWhen = options.stopWhen ?? (async () => false);
  let request: StepRequest = { instructions: "be brief", messages: [{ role: "user", content: "go" }] };
  for (let stepNumber = 0; ; stepNumber++) {
    const step = modelStep({ model: options.model, tools: options.tools, abortSignal: options.abortSignal ?? new AbortController().signal }, request);
    let said: ModelMessage[] = [];
    for (;;) {
      const next = await step.next();
      if (next.done) {
        if (!next.value.goOn || (await stopWhen(stepNumber))) return { parts, histories };
        break;
      }
      parts.push(next.value);
      if (next.value.type === "finish-step") {
        said = next.value.messages;
        histories.push(said);
      }
    }
    request = { instructions: request.instructions, messages: [...request.messages, ...said] };
  }
}

describe("model steps", () => {
  test("two calls in a step: results come as they finish, the history has them in the order of the calls, and the next step is sent", async () => {
    const { model, prompts } = scriptedModel([[call("a", "wait", { ms: 30 }), call("b", "wait", { ms: 1 }), finish("tool-calls")], [...text("done"), finish("stop")]]);
    const tools = toolsOf({ wait: async ({ ms }) => (await Bun.sleep(ms), `waited ${ms}`) });
    const { parts, histories } = await run({ model, tools });

    expect(parts.filter((p) => p.type === "tool-result").map((p) => (p as { toolCallId: string }).toolCallId)).toEqual(["b", "a"]);
    const results = histories[0]![1]!;
    expect(results.role).toBe("tool");
    expect((results.content as { toolCallId: string; output: unknown }[]).map((r) => [r.toolCallId, r.output])).toEqual([
      ["a", { type: "text", value: "waited 30" }],
      ["b", { type: "text", value: "waited 1" }],
    ]);
    // Step 2 was sent the first step's messages after the user's.
    expect(JSON.stringify(prompts[1])).toContain("waited 30");
    expect(parts.filter((p) => p.type === "text-delta").map((p) => (p as { text: string }).text)).toEqual(["done"]);
    expect(parts.filter((p) => p.type === "finish-step").map((p) => (p as { finishReason: string }).finishReason)).toEqual(["tool-calls", "stop"]);
  });

  test("a stop while a tool runs ends the steps at once, without waiting for the tool", async () => {
    const { model } = scriptedModel([[call("a", "hang", { ms: 0 }), finish("tool-calls")]]);
    const controller = new AbortController();
    const tools = toolsOf({ hang: () => (setTimeout(() => controller.abort(), 10), new Promise(() => {})) });
    const { parts, histories } = await run({ model, tools, abortSignal: controller.signal });
    expect(parts.map((p) => p.type)).toEqual(["start-step", "tool-call", "abort"]);
    expect(histories).toEqual([]);
  });

  test("a call of a tool that does not exist gets an error result and the loop goes on", async () => {
    const { model } = scriptedModel([[call("x", "nope", {}), finish("tool-calls")], [...text("ok"), finish("stop")]]);
    const { parts, histories } = await run({ model, tools: toolsOf({ wait: async () => "" }) });
    expect(parts.find((p) => p.type === "tool-call")).toMatchObject({ toolName: "nope", invalid: true });
    expect(parts.find((p) => p.type === "tool-error")).toMatchObject({ toolCallId: "x" });
    expect((histories[0]![1]!.content as { output: { type: string } }[])[0]!.output.type).toBe("error-text");
    expect(parts.at(-1)).toMatchObject({ type: "finish-step", finishReason: "stop" });
  });

  test("a stream that ends without its finish gives no step end and stops", async () => {
    const { model } = scriptedModel([[...text("half an ans")]]);
    const { parts, histories } = await run({ model, tools: {} });
    expect(parts.map((p) => p.type)).toEqual(["start-step", "text-delta"]);
    expect(histories).toEqual([]);
  });

  test("the caller's word to stop ends the steps after the one it was given for", async () => {
    const { model, prompts } = scriptedModel([[call("a", "wait", { ms: 0 }), finish("tool-calls")], [...text("never"), finish("stop")]]);
    const tools = toolsOf({ wait: async () => "ok" });
    const { parts } = await run({ model, tools, stopWhen: async () => true });
    expect(prompts).toHaveLength(1);
    expect(parts.at(-1)).toMatchObject({ type: "finish-step", finishReason: "tool-calls" });
  });
});
