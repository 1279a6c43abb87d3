import { describe, expect, test } from "bun:test";
import { pruneMessages, type ModelMessage } from "ai";
import {
  INTERRUPTED_RESULT,
  closeDanglingToolCalls,
  detachOrphanedItems,
  dropOrphanedResults,
  inlineHistory,
  repairHistory,
  stripItemIds,
} from "../../lib/prune/repair.ts";
import { validateHistory } from "../../lib/prune/validate.ts";
import { callIdsIn, deepFreeze, idMaker, itemIdsIn, longToolLoop, randomHistory, rng, step, user } from "./fixtures.ts";

const ls = { name: "bash", input: { command: "ls" }, output: "Exit code 0\na" };
const partsOf = (m: ModelMessage) => (typeof m.content === "string" ? [] : (m.content as any[]));
const textOf = (messages: ModelMessage[]) => messages.flatMap((m) => partsOf(m).filter((p) => p.type === "text").map((p) => p.text));

describe("closeDanglingToolCalls", () => {
  test("answers a call with no result right after its message, with a stable synthetic result", () => {
    const ids = idMaker();
    const [a] = step(ids, "responses", { reasoning: "r", calls: [ls] });
    const history = deepFreeze([user("hi"), a!, user("next")]);
    const closed = closeDanglingToolCalls(history);
    expect(closed).toHaveLength(4);
    expect(closed[2]).toMatchObject({ role: "tool", content: [{ type: "tool-result", toolCallId: callIdsIn(history)[0], output: { type: "error-text", value: INTERRUPTED_RESULT } }] });
    expect(closeDanglingToolCalls(closed)).toBe(closed);
    expect(closeDanglingToolCalls(history)).toEqual(closed);
  });
});

describe("detachOrphanedItems", () => {
  test("a message whose reasoning was stripped sends its text and calls inline, content intact", () => {
    const history = deepFreeze(longToolLoop({ steps: 10 }));
    const stripped = pruneMessages({ messages: history, reasoning: "all" });
    expect(validateHistory(stripped).map((v) => v.code)).toContain("reference-without-reasoning");
    const detached = detachOrphanedItems(stripped);
    expect(validateHistory(detached)).toEqual([]);
    for (const m of detached) if (m.role === "assistant") expect(itemIdsIn([m])).toEqual([]);
    expect(textOf(detached)).toEqual(textOf(history));
    expect(callIdsIn(detached)).toEqual(callIdsIn(history));
  });

  test("a message that still has its reasoning item keeps every reference (same objects)", () => {
    const history = deepFreeze(longToolLoop({ steps: 10 }));
    expect(detachOrphanedItems(history)).toBe(history);
  });

  test("reasoning sent inline (encrypted, no id) cannot anchor a reference: the others are detached", () => {
    const ids = idMaker();
    const [a] = step(ids, "responses", { reasoning: "r", text: "hi", encrypted: true });
    const inlineReasoning = { ...a!, content: partsOf(a!).map((p) => (p.type === "reasoning" ? { ...p, providerOptions: { openai: { reasoningEncryptedContent: "gAAA" } } } : p)) } as ModelMessage;
    const [out] = detachOrphanedItems(deepFreeze([inlineReasoning]));
    expect(itemIdsIn([out!])).toEqual([]);
    expect(partsOf(out!)[0].providerOptions.openai.reasoningEncryptedContent).toBe("gAAA");
  });

  test("reasoning with no output after it in its message is removed; a message left empty goes", () => {
    const ids = idMaker();
    const [a] = step(ids, "responses", { reasoning: "r", text: "hi" });
    const reasoningLast = { ...a!, content: [...partsOf(a!)].reverse() } as ModelMessage;
    const onlyReasoning = { ...a!, content: partsOf(a!).filter((p) => p.type === "reasoning") } as ModelMessage;
    const out = detachOrphanedItems(deepFreeze([user("hi"), reasoningLast, onlyReasoning]));
    expect(out).toHaveLength(2);
    expect(partsOf(out[1]!).map((p) => p.type)).toEqual(["text"]);
    expect(validateHistory(out)).toEqual([]);
  });

  test("chat-style histories are returned as they are", () => {
    const history = deepFreeze(longToolLoop({ steps: 10, style: "chat" }));
    expect(detachOrphanedItems(history)).toBe(history);
  });

  test("idempotent", () => {
    const stripped = pruneMessages({ messages: longToolLoop({ steps: 5 }), reasoning: "all" });
    const once = detachOrphanedItems(stripped);
    expect(detachOrphanedItems(once)).toBe(once);
  });
});

describe("dropOrphanedResults", () => {
  test("drops a result whose call is gone, and the tool message it leaves empty", () => {
    const history = longToolLoop({ steps: 4, style: "chat", parallelEvery: 0 });
    const cut = deepFreeze([history[0]!, ...history.slice(2)]); // the cut landed between a call and its result
    expect(validateHistory(cut).map((v) => v.code)).toEqual(["orphan-result"]);
    const out = dropOrphanedResults(cut);
    expect(out).toHaveLength(cut.length - 1);
    expect(validateHistory(out)).toEqual([]);
  });

  test("drops only the orphaned part of a parallel result message", () => {
    const ids = idMaker();
    const [a, t] = step(ids, "chat", { calls: [ls, ls] });
    const lost = { ...a!, content: partsOf(a!).slice(0, 1) } as ModelMessage;
    const out = dropOrphanedResults(deepFreeze([user("hi"), lost, t!]));
    expect(partsOf(out[2]!)).toHaveLength(1);
    expect(validateHistory(out)).toEqual([]);
  });

  test("keeps a call still waiting for its result (a suspended approval)", () => {
    const ids = idMaker();
    const [a] = step(ids, "responses", { reasoning: "r", text: "I need to run this.", calls: [ls] });
    const history = deepFreeze([user("hi"), a!]);
    expect(dropOrphanedResults(history)).toBe(history);
  });

  test("a result before its call is an orphan too", () => {
    const ids = idMaker();
    const [a, t] = step(ids, "chat", { calls: [ls] });
    const out = dropOrphanedResults(deepFreeze([user("hi"), t!, a!]));
    expect(out.map((m) => m.role)).toEqual(["user", "assistant"]);
  });
});

describe("stripItemIds", () => {
  test("removes every item id and keeps every other provider option", () => {
    const history = deepFreeze(longToolLoop({ steps: 20, encrypted: true }));
    expect(itemIdsIn(history).length).toBeGreaterThan(60);
    const out = stripItemIds(history);
    expect(itemIdsIn(out)).toEqual([]);
    expect(JSON.stringify(out)).toContain("reasoningEncryptedContent");
    expect(out).toHaveLength(history.length);
    expect(textOf(out)).toEqual(textOf(history));
  });

  test("keeps unrelated options such as phase, and drops emptied option bags", () => {
    const part = { type: "text", text: "hi", providerOptions: { openai: { itemId: "msg_1", phase: "final_answer" }, other: { itemId: "x" } } };
    const [m] = stripItemIds([{ role: "assistant", content: [part] } as ModelMessage]);
    expect(partsOf(m!)[0]).toEqual({ type: "text", text: "hi", providerOptions: { openai: { phase: "final_answer" } } });
  });

  test("returns the input when there is nothing to strip", () => {
    const history = deepFreeze(longToolLoop({ steps: 5, style: "chat" }));
    expect(stripItemIds(history)).toBe(history);
  });
});

describe("inlineHistory", () => {
  test("no item ids, no reasoning; text, calls and results all kept; valid", () => {
    const history = deepFreeze(longToolLoop({ steps: 30, encrypted: true }));
    const out = inlineHistory(history);
    expect(itemIdsIn(out)).toEqual([]);
    expect(out.flatMap(partsOf).some((p) => p.type === "reasoning")).toBe(false);
    expect(textOf(out)).toEqual(textOf(history));
    expect(callIdsIn(out)).toEqual(callIdsIn(history));
    expect(out.filter((m) => m.role === "tool")).toHaveLength(history.filter((m) => m.role === "tool").length);
    expect(validateHistory(out)).toEqual([]);
    expect(inlineHistory(out)).toBe(out);
  });

  test("by option, reasoning with encrypted content is kept inline without its id", () => {
    const out = inlineHistory(deepFreeze(longToolLoop({ steps: 5, encrypted: true })), { reasoning: "inline-encrypted" });
    const reasoning = out.flatMap(partsOf).filter((p) => p.type === "reasoning");
    expect(reasoning).toHaveLength(6);
    for (const p of reasoning) expect(p.providerOptions).toEqual({ openai: { reasoningEncryptedContent: expect.stringMatching(/^gAAAA/) } });
    expect(itemIdsIn(out)).toEqual([]);
    // Reasoning with nothing to send inline is dropped even then.
    expect(inlineHistory(longToolLoop({ steps: 5 }), { reasoning: "inline-encrypted" }).flatMap(partsOf).some((p) => p.type === "reasoning")).toBe(false);
  });
});

describe("repairHistory", () => {
  test("valid histories come back as they are", () => {
    const history = deepFreeze(longToolLoop({ steps: 10 }));
    expect(repairHistory(history)).toBe(history);
  });

  test("any damage (cuts, shuffles, duplicates, lost reasoning) is repaired without losing user messages", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rand = rng(seed * 7919);
      const broken: ModelMessage[] = [...randomHistory(seed)];
      for (let k = rand.int(1, 4); k > 0 && broken.length > 2; k--) {
        const i = rand.int(1, broken.length - 1);
        switch (rand.int(0, 3)) {
          case 0: // lose a message that is not the user's
            if (broken[i]!.role !== "user") broken.splice(i, 1);
            break;
          case 1: // move a message
            broken.splice(rand.int(0, broken.length - 1), 0, ...broken.splice(i, 1));
            break;
          case 2: // duplicate a message
            broken.splice(i, 0, broken[i]!);
            break;
          default: // strip the reasoning of a message
            broken[i] = { ...broken[i]!, content: partsOf(broken[i]!).filter((p) => p.type !== "reasoning") } as ModelMessage;
        }
      }
      deepFreeze(broken);
      const repaired = repairHistory(broken);
      expect({ seed, violations: validateHistory(repaired) }).toEqual({ seed, violations: [] });
      expect(repaired.filter((m) => m.role === "user")).toEqual(broken.filter((m) => m.role === "user"));
    }
  });
});

describe("closeDanglingToolCalls with results already there", () => {
  test("a call cut short while another finished gets its result after the finished one's: the calls' order", () => {
    const assistant: ModelMessage = {
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: "a", toolName: "bash", input: { command: "touch a.txt" } },
        { type: "tool-call", toolCallId: "b", toolName: "bash", input: { command: "sleep 30" } },
      ],
    };
    const finished: ModelMessage = { role: "tool", content: [{ type: "tool-result", toolCallId: "a", toolName: "bash", output: { type: "text", value: "Exit code 0" } }] };
    const history = deepFreeze([user("go"), assistant, finished, user("next")]);
    const closed = closeDanglingToolCalls(history);
    const resultIds = closed.flatMap((m) => (m.role === "tool" ? m.content.map((p) => (p.type === "tool-result" ? p.toolCallId : "")) : []));
    expect(resultIds).toEqual(["a", "b"]);
    expect(closed.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "user"]);
    expect(validateHistory(closed)).toEqual([]);
    expect(closeDanglingToolCalls(closed)).toBe(closed);
  });
});
