// File tools against a symlink race: while another process flips a folder of the workspace
// between itself and a symlink leading out (or a file between itself and a link to a secret),
// every tool is called 200 times. Nothing outside may change, and nothing from outside may reach
// the model: the tools are confined by what they open (lib/fs/confined.ts), not by a path they
// checked a moment earlier. The binary-level runs are in spec/e2e/confined-race.test.ts.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AnyTool } from "../../lib/tools/define.ts";
import { applyPatchTool } from "../../lib/tools/apply-patch.ts";
import { deleteFileTool } from "../../lib/tools/delete-file.ts";
import { editFileTool } from "../../lib/tools/edit-file.ts";
import { globTool } from "../../lib/tools/glob.ts";
import { createGrepTool } from "../../lib/tools/grep.ts";
import { listDirTool } from "../../lib/tools/list-dir.ts";
import { moveFileTool } from "../../lib/tools/move-file.ts";
import { multiEditTool } from "../../lib/tools/multi-edit.ts";
import { readFileTool } from "../../lib/tools/read-file.ts";
import { writeFileTool } from "../../lib/tools/write-file.ts";
import { tempDir } from "../support/cli.ts";
import { removeNow, snapshot, startFlipper } from "../support/race.ts";
import { makeWorkspace, runTool, type Workspace } from "./fixture.ts";

export const TRIES = 200;
const rgPath = Bun.which("rg");

let ws: Workspace;
let outside: string;

/** The same names inside (`d/`) and outside; only the outside ones say OUTSIDE. */
function fill(dir: string, marker: string) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "f.txt"), `${marker} edit-me\n`);
  for (let i = 0; i < TRIES; i++) {
    writeFileSync(join(dir, `m${i}.txt`), `${marker} move ${i}\n`);
    writeFileSync(join(dir, `x${i}.txt`), `${marker} delete ${i}\n`);
    writeFileSync(join(dir, `p${i}.txt`), `${marker} patch ${i}\n`);
  }
}

beforeEach(() => {
  ws = makeWorkspace();
  outside = tempDir("shiro-elsewhere-");
  fill(join(ws.root, "d"), "inside");
  fill(outside, "OUTSIDE");
  writeFileSync(join(outside, "OUTSIDE-ONLY.txt"), "OUTSIDE name\n");
  writeFileSync(join(outside, ".env"), "OUTSIDE_KEY=1\n");
  writeFileSync(join(outside, "id_rsa"), "OUTSIDE private key\n");
  symlinkSync(".env", join(outside, "g.txt")); // a name that looks harmless, leading to a secret
  writeFileSync(join(ws.root, "d", "g.txt"), "inside g\n");
});
afterEach(() => {
  ws.cleanup();
  removeNow(outside);
});

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

/** One call per try; `i` is the try's number. */
const CASES: Array<[string, AnyTool, (i: number) => unknown]> = [
  ["read_file", readFileTool, (i) => ({ path: i % 2 ? "d/f.txt" : "d/g.txt" })],
  ["write_file", writeFileTool, (i) => ({ path: `d/pw${i}.txt`, content: `written ${i}\n` })],
  ["write_file into a new folder", writeFileTool, (i) => ({ path: `d/new${i}/pw.txt`, content: `written ${i}\n` })],
  ["edit_file", editFileTool, (i) => ({ path: "d/f.txt", oldString: "edit-me", newString: `edit-me ${i}` })],
  ["multi_edit", multiEditTool, (i) => ({ path: "d/f.txt", edits: [{ oldString: "edit-me", newString: `edit-me ${i}` }] })],
  ["apply_patch", applyPatchTool, (i) => ({ input: patch(`*** Add File: d/added${i}.txt`, "+added", `*** Delete File: d/p${i}.txt`) })],
  ["move_file", moveFileTool, (i) => ({ from: `d/m${i}.txt`, to: `d/moved${i}.txt` })],
  ["delete_file", deleteFileTool, (i) => ({ path: `d/x${i}.txt` })],
  ["list_dir", listDirTool, () => ({ path: "d" })],
  ["glob", globTool, () => ({ pattern: "**/*.txt", path: "d" })],
  ["grep (built-in search)", createGrepTool({ findRipgrep: () => null }), () => ({ pattern: "OUTS[I]DE|edit-me", path: "d" })],
  ...(rgPath ? [["grep (ripgrep)", createGrepTool({ findRipgrep: () => rgPath }), () => ({ pattern: "OUTS[I]DE|edit-me", path: "d" })] as [string, AnyTool, (i: number) => unknown]] : []),
];

/** Calls `tool` TRIES times while the flipper runs; returns what the model would have read, and how many calls worked. */
async function race(tool: AnyTool, input: (i: number) => unknown, mode: "dir" | "links" | "file" = "dir") {
  const inside = join(ws.root, "real");
  if (mode === "links") {
    // `d` is a link to the folder `real` inside (legitimate) or to the one outside.
    const { renameSync } = await import("node:fs");
    renameSync(join(ws.root, "d"), inside);
    symlinkSync("real", join(ws.root, "d"));
  }
  const flipper = mode === "file" ? await startFlipper("file", ws.root, "d/f.txt", join(outside, "f.txt")) : await startFlipper(mode, ws.root, "d", outside, "real");
  const seen: string[] = [];
  let worked = 0;
  let flips = 0;
  try {
    // At least TRIES calls, and on (for up to 20 s) until the tool has met both states: a loaded
    // machine can starve the flipper for a while.
    const until = performance.now() + 20_000;
    for (let i = 0; i < TRIES || ((worked === 0 || worked === i) && performance.now() < until); i++) {
      try {
        seen.push((await runTool(tool, input(i % TRIES), ws.ctx)).output);
        worked++;
      } catch (error) {
        seen.push((error as Error).message);
      }
    }
  } finally {
    flips = await flipper.stop();
  }
  // The race was on: the flipper kept flipping, and the tool met both states.
  expect(flips).toBeGreaterThan(0);
  expect(worked).toBeGreaterThan(0);
  expect(worked).toBeLessThan(seen.length);
  return { seen: seen.join("\n"), worked };
}

describe(`every file tool, ${TRIES} tries while a folder flips to a symlink leading out`, () => {
  for (const [name, tool, input] of CASES) {
    test(`${name}: nothing outside changes and nothing from outside is read`, async () => {
      const before = snapshot(outside);
      const { seen } = await race(tool, input);
      expect(snapshot(outside)).toEqual(before);
      expect(seen).not.toContain("OUTSIDE");
    }, 60_000);
  }
});

describe(`${TRIES} tries while a link flips between a folder inside and one outside`, () => {
  for (const [name, tool, input] of CASES.filter(([n]) => ["read_file", "write_file", "edit_file", "list_dir"].includes(n))) {
    test(`${name}: the link is followed when it leads inside, refused when it leads out`, async () => {
      const before = snapshot(outside);
      const { seen } = await race(tool, input, "links");
      expect(snapshot(outside)).toEqual(before);
      expect(seen).not.toContain("OUTSIDE");
      expect(seen).toContain("leads through a symlink"); // refused when it led out (and followed, see race(), when it led inside)
    }, 60_000);
  }
});

describe(`${TRIES} tries while the file itself flips to a symlink leading out`, () => {
  for (const [name, tool, input] of CASES.filter(([n]) => ["read_file", "edit_file", "multi_edit", "grep (built-in search)", "grep (ripgrep)"].includes(n))) {
    test(`${name}: the outside file is never read or changed`, async () => {
      const before = snapshot(outside);
      const onFile = name === "read_file" ? () => ({ path: "d/f.txt" }) : name.startsWith("grep") ? () => ({ pattern: "edit-me", path: "d/f.txt" }) : input;
      const { seen } = await race(tool, onFile, "file");
      expect(snapshot(outside)).toEqual(before);
      expect(seen).not.toContain("OUTSIDE");
    }, 60_000);
  }
  test("write_file: the outside file is never written", async () => {
    const before = snapshot(outside);
    const { seen } = await race(writeFileTool, (i) => ({ path: "d/f.txt", content: `written ${i}\n` }), "file");
    expect(snapshot(outside)).toEqual(before);
    expect(seen).not.toContain("OUTSIDE");
  }, 60_000);
});
