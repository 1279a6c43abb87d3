import { expect, test } from "bun:test";
import { commandKey, noteNamesCommand } from "../../lib/app/command-notes.ts";
import { withCommandRun } from "../../lib/memory/command-runs.ts";
import type { MemoryEntry } from "../../lib/memory/schema.ts";

test("a command line is known by its program and first argument, once wrappers, assignments and cd are peeled; a line of several commands has no key", () => {
  expect(commandKey("bun test spec/db")).toEqual(["bun", "test"]);
  expect(commandKey("cd web && CI=1 timeout 60 ./node_modules/.bin/vitest run")).toEqual(["vitest", "run"]);
  expect(commandKey("make -j4 all")).toEqual(["make"]);
  expect(commandKey("npm test | tee log")).toBeUndefined();
  expect(commandKey("npm ci && npm test")).toBeUndefined();
  expect(commandKey("echo $(which bun)")).toBeUndefined();
});

test("a note names a command by its first backticked span, or by the key's words in a row when it has none", () => {
  expect(noteNamesCommand("Tests run with `bun test`, not `npm test`.", ["bun", "test"])).toBe(true);
  expect(noteNamesCommand("Tests run with `bun test`, not `npm test`.", ["npm", "test"])).toBe(false);
  expect(noteNamesCommand("tests run with bun test", ["bun", "test"])).toBe(true);
  expect(noteNamesCommand("build with ./gradlew assemble.", ["gradlew", "assemble"])).toBe(true);
  expect(noteNamesCommand("tests run with bun, then test the docs", ["bun", "test"])).toBe(false);
});

test("127 and 126 record the run; another exit takes the record off; a note that does not match or is not a command is left alone", () => {
  const make = (kind: MemoryEntry["kind"], text: string): MemoryEntry => ({ id: text, kind, text, createdAt: "2026-12-01T00:00:00.000Z", hits: 0 });
  const entries = [make("command", "run `x go`"), make("fact", "run `x go`"), make("command", "run `y go`")];
  const matches = (e: MemoryEntry) => e.text === "run `x go`";
  const now = new Date("2026-12-05T10:00:00Z");
  const marked = withCommandRun(entries, matches, 127, now)!;
  expect(marked.map((e) => e.couldNotRun ?? null)).toEqual([{ exitCode: 127, at: "2026-12-05T10:00:00.000Z" }, null, null]);
  expect(withCommandRun(marked, matches, 1, now)!.map((e) => e.couldNotRun ?? null)).toEqual([null, null, null]);
  expect(withCommandRun(entries, matches, 1, now)).toBeUndefined(); // nothing to change, nothing written
});
