// An older session's results (saved before the live summary was kept with them) get their live
// words worked out again from the text the model read: the real tools' results, read back.
import { afterEach, expect, test } from "bun:test";
import { derivedSummary } from "../../lib/sessions/result-summary.ts";
import { globTool } from "../../lib/tools/glob.ts";
import { createGrepTool } from "../../lib/tools/grep.ts";
import { makeWorkspace, runTool, type Workspace } from "../tools/fixture.ts";

let ws: Workspace | undefined;
afterEach(() => ws?.cleanup());

test("glob's and grep's results read back as the words their live lines had (files, matches), never a line count", async () => {
  ws = makeWorkspace();
  ws.write({ "src/a.ts": "const page = 1;\npage++;\n", "src/b.ts": "// page\n", "notes.md": "nothing here\n" });
  const grep = createGrepTool({ findRipgrep: () => null });
  const runs = [
    ["glob", await runTool(globTool, { pattern: "**/*.ts" }, ws.ctx)],
    ["glob", await runTool(globTool, { pattern: "*.md" }, ws.ctx)],
    ["glob", await runTool(globTool, { pattern: "*.rs" }, ws.ctx)],
    ["grep", await runTool(grep, { pattern: "page" }, ws.ctx)],
    ["grep", await runTool(grep, { pattern: "nothing" }, ws.ctx)],
    ["grep", await runTool(grep, { pattern: "zzz" }, ws.ctx)],
  ] as const;
  expect(runs.map(([, run]) => run.summary)).toEqual(["2 files", "1 file", "no files", "3 matches in 2 files", "1 match in 1 file", "no matches"]);
  for (const [tool, run] of runs) expect(derivedSummary(tool, run.output)).toBe(run.summary);
});

test("a text of a shape glob or grep never wrote gets no made-up words", () => {
  expect(derivedSummary("grep", "something else entirely")).toBeUndefined();
  expect(derivedSummary("glob", "a.ts\n\n[a note glob never wrote]")).toBeUndefined();
});
