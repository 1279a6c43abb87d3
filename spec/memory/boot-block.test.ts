import { expect, test } from "bun:test";
import { MEMORY_BLOCK_HEADER, renderMemoryBlock } from "../../lib/memory/boot-block.ts";
import { formatNotes, formatNotesJson } from "../../lib/memory/notes-list.ts";
import { buildInstructions } from "../../lib/agent/instructions.ts";
import { entry } from "./support/memory.ts";

test("the block is the header, then `- (kind) text` lines", () => {
  const block = renderMemoryBlock([entry("tests run with bun test, not npm test", { kind: "command" })]);
  expect(block).toBe(
    "What you learned about this project in earlier sessions. Trust it, but verify anything that contradicts what you can see in the code now:\n" +
      "- (command) tests run with bun test, not npm test",
  );
  expect(block.startsWith(MEMORY_BLOCK_HEADER)).toBe(true);
});

test("an empty store gives no block at all", () => {
  expect(renderMemoryBlock([])).toBe("");
  const env = { cwd: "/p", root: "/p", date: "2025-01-01", platform: "linux x64", shell: "bash", userHome: "/home/u" };
  expect(buildInstructions({ env, projectDocs: [], memory: renderMemoryBlock([]) })).not.toContain("earlier sessions");
});

test("ordered by hit count, then most recent first; only the top 20", () => {
  const at = (s: number) => new Date(Date.parse("2025-03-01T00:00:00Z") + s * 1000).toISOString();
  const entries = [
    entry("old unused", { createdAt: at(1) }),
    entry("used twice", { createdAt: at(2), hits: 2, lastHitAt: at(50) }),
    entry("new unused", { createdAt: at(3) }),
    entry("used once, long ago", { createdAt: at(4), hits: 1, lastHitAt: at(10) }),
    entry("used once, lately", { createdAt: at(5), hits: 1, lastHitAt: at(60) }),
    ...Array.from({ length: 30 }, (_, i) => entry(`filler ${i}`, { createdAt: at(-100 + i) })),
  ];
  const lines = renderMemoryBlock(entries).split("\n").slice(1);
  expect(lines).toHaveLength(20);
  expect(lines.slice(0, 5)).toEqual(["- (fact) used twice", "- (fact) used once, lately", "- (fact) used once, long ago", "- (fact) new unused", "- (fact) old unused"]);
  expect(lines[5]).toBe("- (fact) filler 29");
  expect(lines[19]).toBe("- (fact) filler 15");
});

test("the block lands in the system prompt through buildInstructions({ memory })", () => {
  const env = { cwd: "/p", root: "/p", date: "2025-01-01", platform: "linux x64", shell: "bash", userHome: "/home/u" };
  const memory = renderMemoryBlock([entry("the migration must run before the seed", { kind: "gotcha" })]);
  expect(buildInstructions({ env, projectDocs: [], memory })).toContain(`${MEMORY_BLOCK_HEADER}\n- (gotcha) the migration must run before the seed`);
});

test("/notes lists the store ranked, with hit counts, and marks what is not loaded at start-up", () => {
  expect(formatNotes([])).toStartWith("Project memory is empty.");
  const entries = [
    entry("a fact", { hits: 0 }),
    entry("a decision", { kind: "decision", hits: 12, lastHitAt: "2025-02-01T00:00:00.000Z" }),
    ...Array.from({ length: 20 }, (_, i) => entry(`filler ${i}`)),
  ];
  const text = formatNotes(entries, { path: "/h/memory/abc.json" });
  const lines = text.split("\n");
  expect(lines[0]).toBe("22 notes of 300 in project memory (/h/memory/abc.json)");
  expect(lines[2]).toBe("hits  kind      text");
  expect(lines[3]).toBe("  12  decision  a decision");
  expect(lines[4]).toBe("   0  fact      filler 19");
  expect(text).toContain("Not loaded at start-up (found with recall):\n   0  fact      filler 0\n   0  fact      a fact");
});

test("memory list --json is one document with every field", () => {
  const e = entry("x", { hits: 3, lastHitAt: "2025-02-01T00:00:00.000Z" });
  expect(JSON.parse(formatNotesJson([e], "/h/memory/abc.json"))).toEqual({ path: "/h/memory/abc.json", count: 1, entries: [e] });
});
