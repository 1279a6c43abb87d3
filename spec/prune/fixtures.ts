// Realistic histories for the prune specs, in the two shapes shiro stores:
// - "responses": what @ai-sdk/openai's Responses provider returns (captured from a run against the
//   fake server): reasoning, text and tool-call parts carry providerOptions.openai.itemId (rs_/msg_/fc_),
//   tool results carry the fc_ id too, and reasoning may carry reasoningEncryptedContent;
// - "chat": plain parts with no provider options (Chat Completions, or a local server).
// Everything is deterministic for a given seed.
import type { ModelMessage } from "ai";

export type Style = "responses" | "chat";

/** mulberry32: a small seeded PRNG, so a failing property case can be replayed from its seed. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
  };
}
export type Rng = ReturnType<typeof rng>;

/** Provider-looking ids (`rs_…`, `msg_…`, `fc_…`, `call_…`), unique per generator. */
export function idMaker(prefix = "3e07a2f3") {
  let n = 0;
  const hex = () => (++n).toString(16).padStart(8, "0");
  return {
    rs: () => `rs_${prefix}${hex()}cdff10cad9bddf12674cf7e439`,
    msg: () => `msg_${prefix}${hex()}cd60dab481831585e3e0e5b32b`,
    fc: () => `fc_${prefix}${hex()}85df39aced749ae2ee0b96e7a1`,
    call: () => `call_${prefix}${hex()}Rkny0QJ`,
  };
}
export type Ids = ReturnType<typeof idMaker>;

export type CallSpec = { name: string; input: Record<string, unknown>; output: string; error?: boolean };
export type StepSpec = { reasoning?: string; text?: string; calls?: CallSpec[]; encrypted?: boolean };

export const user = (text: string): ModelMessage => ({ role: "user", content: [{ type: "text", text }] });

const openai = (options: Record<string, unknown>) => ({ providerOptions: { openai: options } });

/** One model step: the assistant message and, when it called tools, the tool message answering them. */
export function step(ids: Ids, style: Style, spec: StepSpec): ModelMessage[] {
  const r = style === "responses";
  const content: any[] = [];
  if (spec.reasoning !== undefined && r) {
    content.push({
      type: "reasoning",
      text: spec.reasoning,
      ...openai({ itemId: ids.rs(), reasoningEncryptedContent: spec.encrypted ? "gAAAAAB" + "x".repeat(400) : null }),
    });
  }
  if (spec.text) content.push({ type: "text", text: spec.text, ...(r ? openai({ itemId: ids.msg() }) : {}) });
  const calls = (spec.calls ?? []).map((c) => ({ ...c, id: ids.call(), fc: r ? ids.fc() : undefined }));
  for (const c of calls) content.push({ type: "tool-call", toolCallId: c.id, toolName: c.name, input: c.input, ...(c.fc ? openai({ itemId: c.fc }) : {}) });
  const out: ModelMessage[] = [{ role: "assistant", content } as ModelMessage];
  if (calls.length > 0) {
    out.push({
      role: "tool",
      content: calls.map((c) => ({
        type: "tool-result",
        toolCallId: c.id,
        toolName: c.name,
        output: c.error ? { type: "error-text", value: c.output } : { type: "text", value: c.output },
        ...(c.fc ? openai({ itemId: c.fc }) : {}),
      })),
    } as ModelMessage);
  }
  return out;
}

// --- realistic tool calls, with outputs shaped like shiro's tools produce them ---

const FILES = ["src/pagination.ts", "src/api/users.ts", "lib/db.ts", "spec/pagination.test.ts", "README.md", "src/server.ts"];

function numbered(lines: number, from = 1): string {
  return Array.from({ length: lines }, (_, i) => `${from + i}\tconst value${from + i} = compute(${i}); // ${"x".repeat(20)}`).join("\n");
}

export function bunTest(pass: number, fail: number): CallSpec {
  const body = [
    "bun test v1.4.5",
    "",
    "spec/pagination.test.ts:",
    ...Array.from({ length: pass }, (_, i) => `(pass) pagination > page ${i + 1} [0.40ms]`),
    ...Array.from({ length: fail }, (_, i) => `(fail) pagination > boundary ${i + 1} [1.10ms]\nerror: expect(received).toBe(expected)\n  Expected: 20\n  Received: 19`),
    "",
    ` ${pass} pass`,
    ` ${fail} fail`,
    ` ${(pass + fail) * 2} expect() calls`,
    `Ran ${pass + fail} tests across 1 file. [120.00ms]`,
  ].join("\n");
  return { name: "bash", input: { command: "bun test" }, output: `Exit code ${fail > 0 ? 1 : 0}\n${body}` };
}

export function realisticCall(rand: Rng, outputChars = 1500): CallSpec {
  const file = rand.pick(FILES);
  switch (rand.int(0, 8)) {
    case 0:
      return bunTest(rand.int(1, 20), rand.int(0, 4));
    case 1:
      return { name: "read_file", input: { path: file }, output: numbered(Math.max(1, Math.round(outputChars / 60))) };
    case 2:
      return { name: "grep", input: { pattern: "pageSize", path: "src" }, output: Array.from({ length: rand.int(1, 12) }, (_, i) => `${file}:${i * 7 + 3}: const pageSize = opts.pageSize ?? 20;`).join("\n") };
    case 3:
      return { name: "edit_file", input: { path: file, oldString: "offset + pageSize", newString: "offset + pageSize - 1" }, output: `Edited ${file}: replaced 1 occurrence (+1 -1 lines).` };
    case 4:
      return { name: "write_file", input: { path: file, content: "y".repeat(Math.round(outputChars / 2)) }, output: `Created ${file} (40 lines).` };
    case 5:
      return { name: "bash", input: { command: `git diff --stat ${file}` }, output: `Exit code 0\n ${file} | 4 ++--\n 1 file changed, 2 insertions(+), 2 deletions(-)` };
    case 6:
      return { name: "glob", input: { pattern: "**/*.ts" }, output: FILES.filter((f) => f.endsWith(".ts")).join("\n") };
    case 7:
      return { name: "edit_file", input: { path: file, oldString: "nope", newString: "x" }, output: `edit_file: oldString was not found in ${file}. Read the file again and copy the text exactly.`, error: true };
    default:
      return { name: "bash", input: { command: "bun run typecheck" }, output: `Exit code 2\n${file}(12,5): error TS2322: Type 'string' is not assignable to type 'number'.\n${"z".repeat(outputChars)}` };
  }
}

export type LoopOptions = { steps?: number; style?: Style; parallelEvery?: number; outputChars?: number; encrypted?: boolean; seed?: number };

/**
 * One user request and a long tool loop answering it: every step has reasoning (responses style),
 * often a sentence of text, and one tool call — every `parallelEvery`-th step makes three calls at
 * once. Ends with the model's final text.
 */
export function longToolLoop(options: LoopOptions = {}): ModelMessage[] {
  const { steps = 300, style = "responses", parallelEvery = 5, outputChars = 1500, encrypted = false, seed = 1 } = options;
  const rand = rng(seed);
  const ids = idMaker();
  const history: ModelMessage[] = [user("The pagination test fails on the last page. Find out why and fix it.")];
  for (let i = 1; i <= steps; i++) {
    const n = parallelEvery > 0 && i % parallelEvery === 0 ? 3 : 1;
    history.push(
      ...step(ids, style, {
        reasoning: `Step ${i}: thinking about what to check next. ${"r".repeat(300)}`,
        text: rand.chance(0.5) ? `Checking step ${i}.` : undefined,
        calls: Array.from({ length: n }, () => realisticCall(rand, outputChars)),
        encrypted,
      }),
    );
  }
  history.push(...step(ids, style, { reasoning: "Done.", text: "Fixed: the last page used an off-by-one bound.", encrypted }));
  return history;
}

export type RandomOptions = { maxTurns?: number; maxSteps?: number };

/**
 * A random valid history: several user turns, each answered by up to `maxSteps` model steps with
 * reasoning, text and 0–4 (parallel) calls, sometimes results split over two tool messages (as
 * the dangling-call repair leaves them), sometimes ending in a call still waiting for its result
 * (a suspended approval). Style is chosen per history; a responses-style history comes from a
 * reasoning model, so every step has its reasoning item.
 */
export function randomHistory(seed: number, options: RandomOptions = {}): ModelMessage[] {
  const rand = rng(seed);
  const ids = idMaker(seed.toString(16).padStart(8, "0").slice(-8));
  const style: Style = rand.chance(0.6) ? "responses" : "chat";
  const encrypted = rand.chance(0.3);
  const history: ModelMessage[] = [];
  const turns = rand.int(1, options.maxTurns ?? 5);
  for (let t = 0; t < turns; t++) {
    history.push(user(`Request ${t}: ${"u".repeat(rand.int(5, 400))}`));
    const steps = rand.int(0, options.maxSteps ?? 12);
    for (let s = 0; s < steps; s++) {
      const calls = Array.from({ length: rand.chance(0.2) ? rand.int(2, 4) : rand.int(0, 1) }, () => realisticCall(rand, rand.int(10, 4000)));
      const msgs = step(ids, style, {
        reasoning: "r".repeat(rand.int(0, 800)), // a reasoning model reasons on every step (ignored for chat)
        text: rand.chance(0.5) || calls.length === 0 ? `t${s} ${"w".repeat(rand.int(0, 200))}` : undefined,
        calls,
        encrypted,
      });
      const tool = msgs[1];
      if (tool && tool.role === "tool" && tool.content.length > 1 && rand.chance(0.3)) {
        const k = rand.int(1, tool.content.length - 1);
        msgs.splice(1, 1, { role: "tool", content: tool.content.slice(0, k) }, { role: "tool", content: tool.content.slice(k) });
      }
      history.push(...msgs);
    }
    history.push(...step(ids, style, { reasoning: "final", text: `answer ${t}` }));
  }
  if (rand.chance(0.15)) {
    // A suspended approval: the call is there, its result is not yet.
    const [assistant] = step(ids, style, { reasoning: "risky", text: "I need to run this.", calls: [{ name: "bash", input: { command: "rm -rf build" }, output: "" }] });
    history.push(assistant!);
  }
  return history;
}

/** Freezes a value and everything reachable from it, so any mutation throws. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Every provider item id anywhere in the messages. */
export function itemIdsIn(messages: readonly ModelMessage[]): string[] {
  return [...JSON.stringify(messages).matchAll(/"itemId":"([^"]+)"/g)].map((m) => m[1]!);
}

/** Every tool call id in assistant messages. */
export function callIdsIn(messages: readonly ModelMessage[]): string[] {
  return messages.flatMap((m) => (m.role === "assistant" && typeof m.content !== "string" ? m.content.flatMap((p) => (p.type === "tool-call" ? [p.toolCallId] : [])) : []));
}
