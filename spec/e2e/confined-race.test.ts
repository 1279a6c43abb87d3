// Through the binary, over both wires: a model's file-tool calls, and `shiro undo`, while another
// process flips a folder of the workspace between itself and a symlink leading out. Nothing
// outside changes, and nothing from outside reaches the model (its requests) or the session file.
// The 200-try runs per tool are at the tool level (spec/tools/confined-race.test.ts,
// spec/sessions/undo-race.test.ts); here each wire runs TOOL_CALLS calls and UNDO_TRIES undos.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Reply } from "../support/fake-openai.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { runShiro, tempDir } from "../support/cli.ts";
import { toolOutputsIn, WIRES } from "../support/requests.ts";
import { removeNow, snapshot, startFlipper } from "../support/race.ts";

const serve = useFakeServer();
const made: string[] = [];
afterEach(() => removeNow(...made.splice(0)));
const TOOL_CALLS = 100;
const UNDO_TRIES = 8;

/** Everything shiro keeps under its home (sessions, undo journals), as one text. */
function everythingKept(home: string): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) out.push(readFileSync(path, "latin1"));
    }
  };
  walk(home);
  return out.join("\n");
}

function workspaces() {
  const cwd = tempDir("shiro-work-");
  const outside = tempDir("shiro-elsewhere-");
  made.push(cwd, outside);
  mkdirSync(join(cwd, "d"));
  writeFileSync(join(cwd, "d", "f.txt"), "inside edit-me\n");
  writeFileSync(join(outside, "f.txt"), "OUTSIDE edit-me\n");
  writeFileSync(join(outside, ".env"), "OUTSIDE_KEY=1\n");
  symlinkSync(".env", join(outside, "g.txt"));
  writeFileSync(join(cwd, "d", "g.txt"), "inside g\n");
  for (let i = 0; i < TOOL_CALLS; i++) {
    for (const [name, what] of [["m", "move"], ["x", "delete"], ["u", "undo"]]) {
      writeFileSync(join(cwd, "d", `${name}${i}.txt`), `inside ${what} ${i}\n`);
      writeFileSync(join(outside, `${name}${i}.txt`), `OUTSIDE ${what} ${i}\n`);
    }
  }
  return { cwd, outside };
}

/** Call number i of the turn: every file tool in turn. */
function call(i: number): { name: string; input: unknown } {
  switch (i % 10) {
    case 0:
      return { name: "read_file", input: { path: i % 20 ? "d/f.txt" : "d/g.txt" } };
    case 1:
      return { name: "write_file", input: { path: `d/pw${i}.txt`, content: "written\n" } };
    case 2:
      return { name: "edit_file", input: { path: "d/f.txt", oldString: "edit-me", newString: "edit-me!" } };
    case 3:
      return { name: "multi_edit", input: { path: "d/f.txt", edits: [{ oldString: "edit-me", newString: "edit-me?" }] } };
    case 4:
      return { name: "apply_patch", input: { input: `*** Begin Patch\n*** Add File: d/added${i}.txt\n+added\n*** End Patch` } };
    case 5:
      return { name: "move_file", input: { from: `d/m${i}.txt`, to: `d/moved${i}.txt` } };
    case 6:
      return { name: "delete_file", input: { path: `d/x${i}.txt` } };
    case 7:
      return { name: "list_dir", input: { path: "d" } };
    case 8:
      return { name: "glob", input: { pattern: "*.txt", path: "d" } };
    default:
      return { name: "grep", input: { pattern: "edit-me|move", path: "d" } };
  }
}

for (const { wire, flags } of WIRES) {
  describe(`over ${wire}, while a folder flips to a symlink leading out`, () => {
    test(`${TOOL_CALLS} file-tool calls in one headless turn: nothing outside changes, nothing from outside is read`, async () => {
      const { cwd, outside } = workspaces();
      const home = tempDir("shiro-home-");
      const before = snapshot(outside);
      const steps: Reply[] = [];
      for (let i = 0; i < TOOL_CALLS; i += 10) steps.push({ toolCalls: Array.from({ length: 10 }, (_, k) => call(i + k)) });
      const s = await serve(...steps, { text: "done" });
      const flipper = await startFlipper("dir", cwd, "d", outside);
      let run;
      try {
        run = await runShiro(["-p", "work on d", "--yolo", ...flags], { baseURL: s.url, cwd, home, timeoutMs: 60_000 });
      } finally {
        await flipper.stop();
      }
      expect(run.code).toBe(0);
      expect(snapshot(outside)).toEqual(before);
      expect(toolOutputsIn(s.requests.at(-1)!.body).length).toBe(TOOL_CALLS); // the last request carries every result
      expect(s.requests.flatMap((r) => toolOutputsIn(r.body)).join("\n")).not.toContain("OUTSIDE");
      expect(everythingKept(home)).not.toContain("OUTSIDE");
    }, 90_000);

    test("shiro undo after the turn's folder was replaced by a symlink out: nothing outside is deleted or overwritten", async () => {
      const { cwd, outside } = workspaces();
      writeFileSync(join(cwd, "d", "notes.txt"), "notes before\n");
      writeFileSync(join(outside, "important.txt"), "OUTSIDE important\n");
      writeFileSync(join(outside, "notes.txt"), "OUTSIDE notes\n");
      const home = tempDir("shiro-home-");
      const s = await serve(
        { toolCalls: [{ name: "write_file", input: { path: "d/important.txt", content: "made\n" } }, { name: "write_file", input: { path: "d/notes.txt", content: "notes after\n" } }] },
        { text: "written" },
      );
      expect((await runShiro(["-p", "write notes", "--yolo", ...flags], { baseURL: s.url, cwd, home })).code).toBe(0);
      renameSync(join(cwd, "d"), join(cwd, "d.old"));
      symlinkSync(outside, join(cwd, "d"));
      const before = snapshot(outside);
      const undo = await runShiro(["undo", "--force"], { cwd, home });
      expect(snapshot(outside)).toEqual(before);
      expect(undo.code).toBe(1);
      expect(undo.stdout + undo.stderr).toContain("outside the workspace");
    }, 60_000);

    test(`shiro undo --force ${UNDO_TRIES} times while the folder flips: nothing outside is deleted or overwritten`, async () => {
      const { cwd, outside } = workspaces();
      const home = tempDir("shiro-home-");
      const before = snapshot(outside);
      const replies: Reply[] = [];
      for (let i = 0; i < UNDO_TRIES; i++) {
        replies.push({ toolCalls: [{ name: "write_file", input: { path: `d/new${i}.txt`, content: "made\n" } }, { name: "write_file", input: { path: `d/u${i}.txt`, content: "changed\n" } }] }, { text: "ok" });
      }
      const s = await serve(...replies);
      const flipper = await startFlipper("dir", cwd, "d", outside);
      const codes: number[] = [];
      try {
        for (let i = 0; i < UNDO_TRIES; i++) {
          await flipper.pause(); // the turn writes with the folder in place
          expect((await runShiro(["-p", `turn ${i}`, "--yolo", ...flags], { baseURL: s.url, cwd, home })).code).toBe(0);
          await flipper.resume();
          codes.push((await runShiro(["undo", "--force"], { cwd, home })).code);
        }
      } finally {
        await flipper.stop();
      }
      expect(snapshot(outside)).toEqual(before);
      expect(codes.length).toBe(UNDO_TRIES);
    }, 120_000);
  });
}
