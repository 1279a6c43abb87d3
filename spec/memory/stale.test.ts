import { expect, test } from "bun:test";
import { formatNotes } from "../../lib/memory/notes-list.ts";
import type { MemoryEntry } from "../../lib/memory/schema.ts";
import { pathsNamed, staleMarks } from "../../lib/memory/stale.ts";

const note = (text: string, kind: MemoryEntry["kind"] = "fact"): MemoryEntry => ({ id: `n-${text.length}`, kind, text, createdAt: "2026-11-30T10:00:00.000Z", hits: 2 }) as MemoryEntry;

test("a path is a word with a file ending, or a backticked word with a slash; field names, options, URLs and prose are not", () => {
  expect(pathsNamed("the parser lives in `src/parser.ts`")).toEqual(["src/parser.ts"]);
  expect(pathsNamed("see ./src/app.ts and package.json.")).toEqual(["src/app.ts", "package.json"]);
  expect(pathsNamed("`lib/fs/` holds the atomic writes")).toEqual(["lib/fs/"]);
  expect(pathsNamed("the foreign key on `users.org_id` fails")).toEqual([]);
  expect(pathsNamed("use and/or; `obj.method()` is slow; see https://example.com/a.ts; run `bun test --bail`")).toEqual([]);
  expect(pathsNamed("globs like `src/**/*.ts` and ~/notes.md or $HOME/x.ts")).toEqual([]);
});

test("only a named path missing inside the workspace marks a note; /notes shows age, hits and the mark", () => {
  const gone = note("the parser lives in `src/parser.ts`");
  const there = note("settings are read in src/config.ts, see `README.md`", "gotcha");
  const outside = note("the shared config is /etc/shiro/config.json", "command");
  const existing = new Set(["/w/src/config.ts", "/w/README.md"]);
  const marks = staleMarks([gone, there, outside], "/w", (path) => existing.has(path), new Date("2026-12-07T12:00:00Z"));
  expect([...marks.entries()]).toEqual([[gone, "[may be stale: src/parser.ts not found on 2026-12-07]"]]);
  const listed = formatNotes([gone, there], { marks, now: new Date("2026-12-07T12:00:00Z") }).split("\n");
  expect(listed[2]).toBe("hits  age    kind      text");
  expect(listed).toContain("   2  7d     fact      the parser lives in `src/parser.ts`  [may be stale: src/parser.ts not found on 2026-12-07]");
});

test("a command note that could not run is marked with how and when, in the block and in /notes; other kinds are not", () => {
  const missing = { ...note("lint runs with `eslint .`", "command"), couldNotRun: { exitCode: 127 as const, at: "2026-12-05T09:00:00.000Z" } };
  const denied = { ...note("deploy with ./deploy.sh", "command"), couldNotRun: { exitCode: 126 as const, at: "2026-12-06T09:00:00.000Z" } };
  const fact = { ...note("the linter is eslint"), couldNotRun: { exitCode: 127 as const, at: "2026-12-05T09:00:00.000Z" } };
  const marks = staleMarks([missing, denied, fact], "/w", () => true, new Date("2026-12-07T12:00:00Z"));
  expect([...marks.values()]).toEqual(["[may be stale: not found on 2026-12-05]", "[may be stale: not executable on 2026-12-06]"]);
  expect(formatNotes([missing], { marks, now: new Date("2026-12-07T12:00:00Z") })).toContain("command   lint runs with `eslint .`  [may be stale: not found on 2026-12-05]");
});
