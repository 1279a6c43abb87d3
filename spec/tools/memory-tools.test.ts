import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { toJsonSchema } from "@valibot/to-json-schema";
import { memoryTools } from "../../lib/tools/index.ts";
import { MEMORY_MAX_ENTRIES } from "../../lib/memory/limits.ts";
import { serializeMemory } from "../../lib/memory/store.ts";
import { writeStateFileSync } from "../../lib/fs/atomic-write.ts";
import { ToolError } from "../../lib/errors.ts";
import { call, entry, freshStore, readStoreFile } from "../memory/support/memory.ts";

function setup() {
  const s = freshStore();
  return { ...s, tools: memoryTools(s.store) };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return (error as Error).message;
  }
  throw new Error("expected a ToolError");
}

describe("the tools as the model sees them", () => {
  test("three tools, none needing approval, with JSON schemas", () => {
    const { tools } = setup();
    expect(tools.map((t) => t.name)).toEqual(["remember", "recall", "forget"]);
    expect(tools.every((t) => t.mutates === false)).toBe(true);
    const remember = toJsonSchema(tools[0]!.schema, { errorMode: "ignore" }) as any;
    expect(remember.properties.kind.enum).toEqual(["fact", "decision", "gotcha", "command"]);
    expect(remember.required).toEqual(["kind", "text"]);
  });

  test("remember's description teaches the four kinds with a meaning each, one self-contained line, the limit and duplicates", () => {
    const { description } = setup().tools[0]!;
    for (const kind of ["fact", "decision", "gotcha", "command"]) expect(description).toMatch(new RegExp(`^- ${kind}: \\w.+$`, "m"));
    expect(description).toContain("400 characters");
    expect(description).toContain("duplicates are refused");
    expect(description).toContain("one self-contained line");
    expect(description).toContain('"use the new approach" is worthless next session');
  });
});

describe("remember", () => {
  test("saves a note and says what was saved", async () => {
    const { tools, store } = setup();
    const result = await call(tools, "remember", { kind: "command", text: "Tests run with `bun test`, not `npm test`." });
    expect(result.output).toBe("Remembered: (command) Tests run with `bun test`, not `npm test`.");
    const [e] = readStoreFile(store.path).entries;
    expect(e).toMatchObject({ kind: "command", text: "Tests run with `bun test`, not `npm test`.", hits: 0 });
    expect(Object.keys(e!).sort()).toEqual(["createdAt", "hits", "id", "kind", "text"]);
  });

  test("a duplicate (ignoring case and whitespace) is refused and the model is told it is already recorded", async () => {
    const { tools, store } = setup();
    await call(tools, "remember", { kind: "command", text: "Tests run with bun test" });
    const before = readFileSync(store.path, "utf8");
    const message = await refusal(call(tools, "remember", { kind: "fact", text: "  tests   RUN with\nbun test " }));
    expect(message).toBe("remember: this is already recorded as (command) Tests run with bun test — nothing to add.");
    expect(readFileSync(store.path, "utf8")).toBe(before);
  });

  test("text over 400 characters is refused naming the limit and the length, not cut", async () => {
    const { tools, store } = setup();
    await call(tools, "remember", { kind: "fact", text: "x".repeat(400) });
    const before = readFileSync(store.path, "utf8");
    const message = await refusal(call(tools, "remember", { kind: "fact", text: "y".repeat(401) }));
    expect(message).toContain("401 characters");
    expect(message).toContain("limit is 400");
    expect(readFileSync(store.path, "utf8")).toBe(before);
  });

  test("empty text and an unknown kind are refused and the store is unchanged", async () => {
    const { tools, store } = setup();
    await call(tools, "remember", { kind: "fact", text: "first" });
    const before = readFileSync(store.path, "utf8");
    expect(await refusal(call(tools, "remember", { kind: "fact", text: " \n\t " }))).toContain("text is empty");
    const unknown = await refusal(call(tools, "remember", { kind: "rumour", text: "something" }));
    expect(unknown).toContain("kind must be one of: fact, decision, gotcha, command");
    expect(await refusal(call(tools, "remember", { text: "no kind" }))).toContain("remember: invalid arguments");
    expect(readFileSync(store.path, "utf8")).toBe(before);
  });

  test("a full store (300) refuses, saying how to make room", async () => {
    const { tools, store } = setup();
    writeStateFileSync(store.path, serializeMemory(Array.from({ length: MEMORY_MAX_ENTRIES }, (_, i) => entry(`note ${i}`))));
    const before = readFileSync(store.path, "utf8");
    const message = await refusal(call(tools, "remember", { kind: "fact", text: "one more" }));
    expect(message).toContain("full (300 of 300 notes)");
    expect(message).toContain("forget");
    expect(message).toContain("/memory");
    expect(readFileSync(store.path, "utf8")).toBe(before);
    // A duplicate on a full store still gets the more useful answer.
    expect(await refusal(call(tools, "remember", { kind: "fact", text: "note 7" }))).toContain("already recorded");
    // After forgetting one, there is room again.
    await call(tools, "forget", { text: "note 299" });
    expect((await call(tools, "remember", { kind: "fact", text: "one more" })).output).toContain("Remembered");
    expect(readStoreFile(store.path).entries).toHaveLength(300);
  });
});

describe("recall", () => {
  test("every term must appear (AND), case-insensitively", async () => {
    const { tools } = setup();
    await call(tools, "remember", { kind: "gotcha", text: "The Migration must run before the Seed." });
    await call(tools, "remember", { kind: "fact", text: "The seed script lives in db/seed.ts." });
    await call(tools, "remember", { kind: "fact", text: "Migrations are in db/migrations." });
    const result = await call(tools, "recall", { query: "migration SEED" });
    expect(result.output).toBe('1 note matches "migration seed":\n(gotcha) The Migration must run before the Seed.');
    expect(result.summary).toBe("1 note matched");
  });

  test("each match gets one more hit and lastHitAt, persisted; non-matches are untouched", async () => {
    const { tools, store } = setup();
    await call(tools, "remember", { kind: "fact", text: "alpha one" });
    await call(tools, "remember", { kind: "fact", text: "alpha two" });
    await call(tools, "remember", { kind: "fact", text: "beta" });
    await call(tools, "recall", { query: "alpha" });
    await call(tools, "recall", { query: "one" });
    const byText = Object.fromEntries(readStoreFile(store.path).entries.map((e) => [e.text, e]));
    expect(byText["alpha one"]!.hits).toBe(2);
    expect(byText["alpha two"]!.hits).toBe(1);
    expect(byText["beta"]!.hits).toBe(0);
    expect(byText["beta"]!.lastHitAt).toBeUndefined();
    expect(Date.parse(byText["alpha one"]!.lastHitAt!)).toBeGreaterThan(Date.parse(byText["alpha two"]!.lastHitAt!));
  });

  test("returns at most the 15 most recent matches, newest first, and says how many matched", async () => {
    const { tools, store } = setup();
    for (let i = 1; i <= 20; i++) await call(tools, "remember", { kind: "fact", text: `widget note ${i}` });
    const { output } = await call(tools, "recall", { query: "widget" });
    const lines = output.split("\n");
    expect(lines[0]).toBe('20 notes match "widget"; the 15 most recent (add words to narrow it down):');
    expect(lines.slice(1)).toEqual(Array.from({ length: 15 }, (_, i) => `(fact) widget note ${20 - i}`));
    // Every match counts as a hit, as the spec says, shown or not.
    expect(readStoreFile(store.path).entries.every((e) => e.hits === 1)).toBe(true);
  });

  test("says plainly when nothing matched, and writes nothing", async () => {
    const { tools, store } = setup();
    await call(tools, "remember", { kind: "fact", text: "alpha" });
    const before = readFileSync(store.path, "utf8");
    const result = await call(tools, "recall", { query: "alpha gamma" });
    expect(result.output).toStartWith('Nothing in project memory matches "alpha gamma"');
    expect(result.summary).toBe("no match");
    expect(readFileSync(store.path, "utf8")).toBe(before);
  });

  test("an empty query is a tool error", async () => {
    const { tools, home } = setup();
    expect(await refusal(call(tools, "recall", { query: "  " }))).toContain("recall: query is empty");
    expect(existsSync(home)).toBe(false);
  });
});

describe("forget", () => {
  test("removes every note containing the text (case-insensitive), says how many and which", async () => {
    const { tools, store } = setup();
    await call(tools, "remember", { kind: "fact", text: "The API is versioned under /v2." });
    await call(tools, "remember", { kind: "gotcha", text: "the api rate limit is 10/s" });
    await call(tools, "remember", { kind: "command", text: "bun test" });
    const result = await call(tools, "forget", { text: "THE API" });
    expect(result.output).toBe("Forgot 2 notes:\n(fact) The API is versioned under /v2.\n(gotcha) the api rate limit is 10/s");
    expect(result.summary).toBe("2 notes removed");
    expect(readStoreFile(store.path).entries.map((e) => e.text)).toEqual(["bun test"]);
  });

  test("says so when nothing matched, and writes nothing", async () => {
    const { tools, store } = setup();
    await call(tools, "remember", { kind: "fact", text: "alpha" });
    const before = readFileSync(store.path, "utf8");
    const result = await call(tools, "forget", { text: "gamma" });
    expect(result.output).toBe('No note contains "gamma"; nothing was forgotten.');
    expect(readFileSync(store.path, "utf8")).toBe(before);
  });

  test("empty text is a tool error, not 'forget everything'", async () => {
    const { tools, store } = setup();
    await call(tools, "remember", { kind: "fact", text: "alpha" });
    expect(await refusal(call(tools, "forget", { text: "" }))).toContain("forget: text is empty");
    expect(readStoreFile(store.path).entries).toHaveLength(1);
  });
});
