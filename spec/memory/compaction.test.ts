import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { planCompaction } from "../../lib/memory/compaction-plan.ts";
import { parseCompactionReply } from "../../lib/memory/compaction-reply.ts";
import { applyCompaction, compactMemory } from "../../lib/memory/compaction-apply.ts";
import { rememberNote } from "../../lib/memory/remember.ts";
import { serializeMemory } from "../../lib/memory/store.ts";
import { writeStateFileSync } from "../../lib/fs/atomic-write.ts";
import type { MemoryEntry } from "../../lib/memory/schema.ts";
import { entry, freshStore, readStoreFile } from "./support/memory.ts";

/** `unused` never-recalled notes and `used` recalled ones. */
function notesOf(unused: number, used: number): MemoryEntry[] {
  return [
    ...Array.from({ length: used }, (_, i) => entry(`recalled note ${i}`, { kind: "decision", hits: i + 1, lastHitAt: "2025-06-01T00:00:00.000Z" })),
    ...Array.from({ length: unused }, (_, i) => entry(`unused note ${i}`, { kind: i % 2 ? "fact" : "gotcha" })),
  ];
}

function storeWith(entries: MemoryEntry[]) {
  const s = freshStore();
  writeStateFileSync(s.store.path, serializeMemory(entries));
  return s;
}

const never = async (): Promise<string> => {
  throw new Error("the model must not be asked");
};

describe("thresholds", () => {
  test("60 notes or fewer: a deliberate no-op, with the reason", () => {
    const plan = planCompaction(notesOf(60, 0));
    expect(plan).toEqual({ type: "noop", reason: "Project memory has 60 notes; compaction starts above 60, so nothing was changed." });
  });

  test("more than 60 but fewer than two unused: no-op, with the reason", () => {
    const plan = planCompaction(notesOf(1, 70));
    expect(plan.type).toBe("noop");
    if (plan.type === "noop") expect(plan.reason).toBe("Only 1 note of 71 has never been recalled; compaction merges only never-recalled notes and needs at least 2, so nothing was changed.");
  });

  test("past both: only never-recalled notes are sent; recalled notes are not even in the prompt", () => {
    const plan = planCompaction(notesOf(40, 25));
    expect(plan.type).toBe("merge");
    if (plan.type !== "merge") return;
    expect(plan.send).toHaveLength(40);
    expect(plan.keep).toHaveLength(25);
    expect(plan.prompt).toContain("(gotcha) unused note 0\n(fact) unused note 1");
    expect(plan.prompt).not.toContain("recalled note");
    expect(plan.prompt).toContain("(kind) text");
  });

  test("compactMemory under the thresholds never calls the model and leaves the file byte-for-byte", async () => {
    const { store } = storeWith(notesOf(10, 0));
    const before = readFileSync(store.path, "utf8");
    const outcome = await compactMemory({ store, generate: never });
    expect(outcome.type).toBe("noop");
    expect(outcome.message).toContain("compaction starts above 60");
    expect(readFileSync(store.path, "utf8")).toBe(before);
  });

  test("on a project with no memory at all, compaction creates nothing", async () => {
    const { store, home } = freshStore();
    expect((await compactMemory({ store, generate: never })).type).toBe("noop");
    expect(existsSync(home)).toBe(false);
  });
});

describe("applying a reply", () => {
  test("unused notes are replaced by the merged ones; recalled notes are kept verbatim", async () => {
    const original = notesOf(50, 15);
    const { store } = storeWith(original);
    let prompt = "";
    const outcome = await compactMemory({
      store,
      generate: async (p) => {
        prompt = p;
        return "(gotcha) unused notes 0-48 (even) merged\n(fact) unused notes 1-49 (odd) merged\n";
      },
    });
    expect(prompt).toContain("unused note 49");
    expect(outcome.type).toBe("applied");
    expect(outcome.message).toBe("Compacted project memory from 65 to 17 notes: 50 notes never recalled merged into 2, 15 kept as they were.");
    const after = readStoreFile(store.path).entries;
    expect(after.slice(0, 15)).toEqual(original.slice(0, 15)); // verbatim: same ids, hits, times
    expect(after.slice(15).map((e) => `(${e.kind}) ${e.text}`)).toEqual(["(gotcha) unused notes 0-48 (even) merged", "(fact) unused notes 1-49 (odd) merged"]);
    expect(after.slice(15).every((e) => e.hits === 0 && e.id.length > 0)).toBe(true);
  });

  for (const [name, reply] of [
    ["empty", ""],
    ["prose", "I'm sorry, I can't help with that. Here is a summary of your notes: they are about tests."],
    ["unknown kinds only", "(rumour) something\n(idea) something else"],
    ["empty texts only", "(fact)   \n(gotcha)"],
    ["only over-long notes", `(fact) ${"z".repeat(500)}`],
  ] as const) {
    test(`a reply with nothing usable (${name}) leaves the store untouched byte-for-byte`, async () => {
      const { store } = storeWith(notesOf(61, 5));
      const before = readFileSync(store.path, "utf8");
      const outcome = await compactMemory({ store, generate: async () => reply });
      expect(outcome.type).toBe("rejected");
      expect(outcome.message).toContain("left unchanged");
      expect(readFileSync(store.path, "utf8")).toBe(before);
    });
  }

  test("a reply with more notes than it was given is not a merge and is refused", async () => {
    const { store } = storeWith(notesOf(62, 0));
    const before = readFileSync(store.path, "utf8");
    const reply = Array.from({ length: 63 }, (_, i) => `(fact) invented ${i}`).join("\n");
    const outcome = await compactMemory({ store, generate: async () => reply });
    expect(outcome).toEqual({ type: "rejected", message: "The model's reply has 63 notes for the 62 it was given, which is not a merge, so project memory was left unchanged." });
    expect(readFileSync(store.path, "utf8")).toBe(before);
  });

  test("bad lines are skipped and reported; duplicates of kept notes are dropped", async () => {
    const { store } = storeWith(notesOf(61, 3));
    const outcome = await compactMemory({
      store,
      generate: async () => ["Here you go:", "```", "- (fact) merged one", "(opinion) not a kind", "(decision) recalled note 1", `(fact) ${"q".repeat(401)}`, "```"].join("\n"),
    });
    expect(outcome.type).toBe("applied");
    if (outcome.type !== "applied") return;
    expect(outcome.added).toBe(1);
    expect(outcome.skipped).toHaveLength(3);
    expect(outcome.message).toContain("From the reply, 3 lines skipped");
    expect(readStoreFile(store.path).entries.map((e) => e.text)).toEqual(["recalled note 0", "recalled note 1", "recalled note 2", "merged one"]);
  });

  test("the store is re-read under the lock: notes added meanwhile survive, and a sent note recalled meanwhile is kept", async () => {
    const { store } = storeWith(notesOf(70, 0));
    const { entries } = await store.read();
    const plan = planCompaction(entries);
    if (plan.type !== "merge") throw new Error("expected a merge plan");
    // While the model is thinking, another session adds a note and recalls one of the sent notes.
    await rememberNote(store, { kind: "command", text: "added while compacting" });
    const current = readStoreFile(store.path);
    current.entries[3] = { ...current.entries[3]!, hits: 1, lastHitAt: new Date().toISOString() };
    writeStateFileSync(store.path, serializeMemory(current.entries));

    const outcome = await applyCompaction(store, plan, "(fact) everything merged");
    expect(outcome.type).toBe("applied");
    const texts = readStoreFile(store.path).entries.map((e) => e.text);
    expect(texts).toEqual(["unused note 3", "added while compacting", "everything merged"]);
  });
});

describe("parsing a reply", () => {
  test("accepts (kind) text lines with list markers, and JSON lines; ignores prose and fences", () => {
    const parsed = parseCompactionReply(
      ["Sure! Merged notes:", "```text", "1. (Command) `bun test`", "* ( gotcha ) trap", '{"kind":"decision","text":"chose X because Y"}', "```", "", "(fact) plain"].join("\n"),
    );
    expect(parsed.drafts).toEqual([
      { kind: "command", text: "`bun test`" },
      { kind: "gotcha", text: "trap" },
      { kind: "decision", text: "chose X because Y" },
      { kind: "fact", text: "plain" },
    ]);
    expect(parsed.skipped).toEqual([]);
  });
});
