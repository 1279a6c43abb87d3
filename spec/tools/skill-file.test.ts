// The skill tool's `file`: a file of the skill's own folder, read through that folder link by link
// (lib/fs/confined.ts), so neither a link leading out nor one swapped in during the read reaches
// anything else.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSkillTool } from "../../lib/tools/skill.ts";
import { tempDir } from "../support/cli.ts";
import { removeNow, startFlipper } from "../support/race.ts";
import { errorOf, makeWorkspace, runTool, type Workspace } from "./fixture.ts";

let ws: Workspace;
afterEach(() => ws.cleanup());

function skillIn(dir: string) {
  mkdirSync(join(dir, "refs"), { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), "---\nname: deploy\ndescription: d\n---\nsteps\n");
  writeFileSync(join(dir, "refs", "notes.md"), "inside notes\n");
  return createSkillTool([{ name: "deploy", description: "d", dir, file: join(dir, "SKILL.md"), source: "user" }]);
}

test("a file of the skill is read; a link out of its folder is refused", async () => {
  ws = makeWorkspace();
  const outside = tempDir("shiro-elsewhere-");
  writeFileSync(join(outside, "notes.md"), "OUTSIDE\n");
  const tool = skillIn(join(ws.root, "skill"));
  expect((await runTool(tool, { name: "deploy", file: "refs/notes.md" }, ws.ctx)).output).toBe("inside notes\n");
  symlinkSync(outside, join(ws.root, "skill", "out"));
  expect(await errorOf(runTool(tool, { name: "deploy", file: "out/notes.md" }, ws.ctx))).toContain("is not a file of the skill");
});

test("2,000 reads while a folder of the skill flips to a link leading out: nothing from outside is read", async () => {
  ws = makeWorkspace();
  const outside = tempDir("shiro-elsewhere-");
  writeFileSync(join(outside, "notes.md"), "OUTSIDE\n");
  const dir = join(ws.root, "skill");
  const tool = skillIn(dir);
  const flipper = await startFlipper("dir", dir, "refs", outside);
  const seen: string[] = [];
  try {
    for (let i = 0; i < 2000; i++) {
      try {
        seen.push((await runTool(tool, { name: "deploy", file: "refs/notes.md" }, ws.ctx)).output);
      } catch (error) {
        seen.push((error as Error).message);
      }
    }
  } finally {
    await flipper.stop();
    removeNow(outside);
  }
  expect(seen.join("\n")).not.toContain("OUTSIDE");
  expect(seen).toContain("inside notes\n");
});
