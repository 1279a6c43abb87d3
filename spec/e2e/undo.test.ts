import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { jsonLines, runShiro, shiroCommand, shiroEnv, tempDir } from "../support/cli.ts";
import { instructionsIn, toolOutputsIn } from "../support/requests.ts";

const serve = useFakeServer();
const sessionsDir = (home: string) => join(home, ".shiro-neko", "sessions");
const onlySession = (home: string) => JSON.parse(readFileSync(join(sessionsDir(home), readdirSync(sessionsDir(home)).find((n) => n.endsWith(".json"))!), "utf8"));
const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

/** A workspace with three files, and a turn's replies that edit, create, move and delete through every file tool. */
function busyTurn() {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "edit.txt"), "one\ntwo\n");
  writeFileSync(join(cwd, "doomed.txt"), "bye\n");
  writeFileSync(join(cwd, "old.txt"), "moving\n");
  const replies = [
    { toolCalls: [{ name: "edit_file", input: { path: "edit.txt", oldString: "two", newString: "TWO" } }] },
    { toolCalls: [{ name: "write_file", input: { path: "src/new.ts", content: "export {}\n" } }] },
    { toolCalls: [{ name: "move_file", input: { from: "old.txt", to: "moved/old.txt" } }] },
    { toolCalls: [{ name: "delete_file", input: { path: "doomed.txt" } }] },
    { toolCalls: [{ name: "apply_patch", input: { input: patch("*** Update File: edit.txt", "@@", " one", "-TWO", "+2", "*** Add File: notes.md", "+# notes") } }] },
    { toolCalls: [{ name: "bash", input: { command: "touch ran.txt" } }] },
    { text: "all done" },
  ];
  return { cwd, replies };
}

test("headless: a command that only reads is not counted among those shiro undo cannot revert", async () => {
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "a.txt"), "a\n");
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: "ls && cat a.txt" } }] }, { text: "looked" });
  const run = await runShiro(["-p", "look around", "--yolo"], { baseURL: s.url, cwd, home: tempDir() });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("looked");
  expect(run.stderr).not.toContain("cannot revert");
});

test("headless: a failing command counts by what it is, not by its exit code, and the line says it only may have changed things", async () => {
  const cwd = tempDir("shiro-work-");
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: "cat missing.txt" } }] },
    { toolCalls: [{ name: "bash", input: { command: "exit 3" } }] },
    { text: "tried" },
  );
  const run = await runShiro(["-p", "try things", "--yolo"], { baseURL: s.url, cwd, home: tempDir() });
  expect(run.code).toBe(0);
  expect(toolOutputsIn(s.requests[1]!.body).join("")).toContain("Exit code 1");
  expect(toolOutputsIn(s.requests[2]!.body).join("")).toContain("Exit code 3");
  // The failed read counts for nothing; the failed `exit 3` is not judged read-only, so it counts.
  expect(run.stderr).toContain("bash ran 1 command: shiro undo cannot revert what it may have changed");
});

test("undoing a turn whose only change was a command does not claim the files are unchanged", async () => {
  const home = tempDir();
  const cwd = tempDir("shiro-work-");
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: "touch made-by-bash.txt" } }] }, { text: "touched" });
  await runShiro(["-p", "touch it", "--yolo"], { baseURL: s.url, cwd, home });
  const undo = await runShiro(["undo"], { cwd, home });
  expect(undo.code).toBe(0);
  expect(undo.stdout).toContain('Took the conversation back to before "touch it".');
  expect(undo.stdout).toContain("bash ran 1 command in that turn; shiro undo cannot revert what it may have changed.");
  expect(undo.stdout).not.toContain("the files are unchanged");
  expect(existsSync(join(cwd, "made-by-bash.txt"))).toBe(true);
});

describe("/undo for scripts: shiro undo", () => {
  test("a headless turn that edits, creates, moves and deletes is taken back whole by shiro undo", async () => {
    const home = tempDir();
    const { cwd, replies } = busyTurn();
    const s = await serve(...replies);
    const run = await runShiro(["-p", "reorganise the files", "--yolo"], { baseURL: s.url, cwd, home });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("6 files changed · shiro undo to restore · bash ran 1 command: shiro undo cannot revert what it may have changed");
    expect(readFileSync(join(cwd, "edit.txt"), "utf8")).toBe("one\n2\n");
    expect(existsSync(join(cwd, "moved/old.txt"))).toBe(true);
    expect(onlySession(home).messages.length).toBeGreaterThan(4);

    const undo = await runShiro(["undo"], { cwd, home });
    expect(undo.code).toBe(0);
    expect(undo.stdout).toBe(
      [
        'Undid the turn "reorganise the files":',
        "  restored edit.txt",
        "  removed src/new.ts",
        "  recreated old.txt",
        "  removed moved/old.txt",
        "  recreated doomed.txt",
        "  removed notes.md",
        "The conversation is back to before that prompt.",
        "bash ran 1 command in that turn; shiro undo cannot revert what it may have changed.",
        "The prompt was:",
        "  reorganise the files",
        "",
      ].join("\n"),
    );
    expect(readFileSync(join(cwd, "edit.txt"), "utf8")).toBe("one\ntwo\n");
    expect(readFileSync(join(cwd, "old.txt"), "utf8")).toBe("moving\n");
    expect(readFileSync(join(cwd, "doomed.txt"), "utf8")).toBe("bye\n");
    for (const gone of ["src", "moved", "notes.md"]) expect(existsSync(join(cwd, gone))).toBe(false);
    expect(onlySession(home).messages).toEqual([]);

    const again = await runShiro(["undo"], { cwd, home });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("nothing to undo");
  });

  test("-c after shiro undo --files continues the whole conversation; a second turn is undone before the first", async () => {
    const home = tempDir();
    const cwd = tempDir();
    const s = await serve(
      { toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "first\n" } }] },
      { text: "one" },
      { toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "second\n" } }] },
      { text: "two" },
    );
    await runShiro(["-p", "write first", "--yolo"], { baseURL: s.url, cwd, home });
    await runShiro(["-c", "-p", "write second", "--yolo"], { baseURL: s.url, cwd, home });
    const files = await runShiro(["undo", "--files"], { cwd, home });
    expect(files.stdout).toContain('Put back the files of the turn "write second":\n  restored a.txt\nThe conversation is unchanged.');
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("first\n");
    const conversation = await runShiro(["undo", "--conversation"], { cwd, home });
    expect(conversation.stdout).toContain('Took the conversation back to before "write second"; the files are unchanged.');
    expect(onlySession(home).messages.filter((m: any) => m.role === "user").map((m: any) => m.content)).toEqual(["write first"]);
    const first = await runShiro(["undo"], { cwd, home });
    expect(first.code).toBe(0);
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
  });

  test("a file changed outside shiro is not overwritten without --force", async () => {
    const home = tempDir();
    const cwd = tempDir();
    writeFileSync(join(cwd, "a.txt"), "original\n");
    const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "by shiro\n" } }] }, { text: "ok" });
    await runShiro(["-p", "rewrite a", "--yolo"], { baseURL: s.url, cwd, home });
    writeFileSync(join(cwd, "a.txt"), "my own edit\n");
    const refused = await runShiro(["undo"], { cwd, home });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("shiro: a.txt changed after that turn, so nothing was undone. Run again with --force");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("my own edit\n");
    expect(onlySession(home).messages.length).toBeGreaterThan(0);
    const forced = await runShiro(["undo", "--force"], { cwd, home });
    expect(forced.code).toBe(0);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("original\n");
  });

  test("refusing to undo a file the turn created and the user then edited says --force deletes it", async () => {
    const home = tempDir();
    const cwd = tempDir();
    const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "new.txt", content: "by shiro\n" } }] }, { text: "ok" });
    await runShiro(["-p", "create new", "--yolo"], { baseURL: s.url, cwd, home });
    writeFileSync(join(cwd, "new.txt"), "my own edit\n");
    const refused = await runShiro(["undo"], { cwd, home });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("shiro: new.txt changed after that turn, so nothing was undone. Run again with --force to delete it (the turn created it).");
    expect(readFileSync(join(cwd, "new.txt"), "utf8")).toBe("my own edit\n");
  });

  test("a turn shiro was killed in still undoes; the question says the turn never finished, not that the file changed since", async () => {
    const home = tempDir();
    const cwd = tempDir();
    writeFileSync(join(cwd, "a.txt"), "original\n");
    const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "by shiro\n" } }] }, { toolCalls: [{ name: "bash", input: { command: "sleep 30" } }] });
    const child = Bun.spawn([...shiroCommand(), "-p", "rewrite a", "--yolo"], { cwd, env: shiroEnv(home, s.url), stdout: "pipe", stderr: "pipe" });
    const deadline = Date.now() + 10_000;
    while (s.requests.length < 2 && Date.now() < deadline) await Bun.sleep(20);
    await Bun.sleep(400); // the command is running now
    child.kill("SIGKILL");
    await child.exited;
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("by shiro\n");
    const refused = await runShiro(["undo"], { cwd, home });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("nothing was undone. That turn never finished (shiro was stopped during it), so whether a.txt changed after it cannot be told. Run again with --force");
    expect(refused.stderr).not.toContain("changed after that turn");
    const forced = await runShiro(["undo", "--force"], { cwd, home });
    expect(forced.code).toBe(0);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("original\n");
  }, 30_000);

  test("--json's result record counts what the turn changed; usage errors are exit 2", async () => {
    const cwd = tempDir();
    const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "x.txt", content: "x" } }] }, { text: "ok" });
    const run = await runShiro(["-p", "go", "--yolo", "--json"], { baseURL: s.url, cwd });
    expect(jsonLines(run.stdout).at(-1)!.changes).toEqual({ files: 1, unkept: 0, commands: 0 });
    expect((await runShiro(["undo", "--files", "--conversation"], { cwd })).code).toBe(2);
    expect((await runShiro(["undo", "--bogus"], { cwd })).stderr).toContain('unknown option --bogus for "shiro undo"');
  });
});

describe("apply_patch end to end", () => {
  test("a failing hunk leaves every file untouched and tells the model which hunk; a path escape is refused", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "a.py"), "def f():\n    return 1\n");
    writeFileSync(join(cwd, "b.py"), "x = 1\n");
    const s = await serve(
      { toolCalls: [{ name: "apply_patch", input: { input: patch("*** Update File: a.py", "@@ def f():", "-    return 1", "+    return 2", "*** Update File: b.py", "@@", "-y = 1", "+y = 2") } }] },
      { toolCalls: [{ name: "apply_patch", input: { input: patch("*** Add File: ../escape.txt", "+x") } }] },
      { toolCalls: [{ name: "apply_patch", input: { input: patch("*** Update File: a.py", "@@ def f():", "-  return 1", "+  return 3") } }] },
      { text: "done" },
    );
    const run = await runShiro(["-p", "patch it", "--yolo", "--json"], { baseURL: s.url, cwd });
    expect(run.code).toBe(0);
    const errors = jsonLines(run.stdout).filter((l) => l.type === "tool-error").map((l) => l.error);
    expect(errors[0]).toContain("hunk 1 of 1 for b.py (patch line 7) does not apply");
    expect(errors[1]).toContain("path ../escape.txt is outside the workspace");
    expect(toolOutputsIn(s.requests[3]!.body).at(-1)).toContain("M a.py (+1 -1)");
    expect(readFileSync(join(cwd, "a.py"), "utf8")).toBe("def f():\n  return 3\n"); // "-  return 1" found despite its indentation
    expect(readFileSync(join(cwd, "b.py"), "utf8")).toBe("x = 1\n");
    expect(existsSync(join(cwd, "..", "escape.txt"))).toBe(false);
  });

  test("the system prompt points GPT-5-family models to apply_patch, and other models to edit_file", async () => {
    const s = await serve({ text: "a" }, { text: "b" });
    await runShiro(["-p", "hi", "-m", "gpt-5-mini"], { baseURL: s.url });
    await runShiro(["-p", "hi", "-m", "qwen3-coder"], { baseURL: s.url });
    expect(instructionsIn(s.requests[0]!.body)).toContain("Edit files with apply_patch");
    expect(instructionsIn(s.requests[1]!.body)).not.toContain("Edit files with apply_patch");
    expect(instructionsIn(s.requests[1]!.body)).toContain("Prefer edit_file/multi_edit");
  });
});

describe("git read tools end to end", () => {
  test("allowed headless without --yolo; the model reads the status and the diff", async () => {
    const cwd = tempDir();
    const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd, env: { PATH: process.env.PATH!, HOME: cwd } });
    git("init", "-q", "-b", "main");
    git("-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "--allow-empty", "-m", "start");
    writeFileSync(join(cwd, "n.txt"), "new\n");
    const s = await serve({ toolCalls: [{ name: "git", input: { op: "status" } }, { name: "git", input: { op: "log", limit: 5 } }] }, { text: "clean enough" });
    const run = await runShiro(["-p", "what changed?", "--json"], { baseURL: s.url, cwd });
    expect(jsonLines(run.stdout).at(-1)!.denied).toEqual([]);
    const outputs = toolOutputsIn(s.requests[1]!.body).join("\n");
    expect(outputs).toContain("## main\n?? n.txt");
    expect(outputs).toContain("a: start");
  });
});

test("a damaged undo record is reported and set aside, not taken for 'nothing to undo' and overwritten", async () => {
  const home = tempDir();
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "a.txt"), "alpha\n");
  const s = await serve(
    { toolCalls: [{ name: "edit_file", input: { path: "a.txt", oldString: "alpha", newString: "beta" } }] },
    { text: "edited" },
    { toolCalls: [{ name: "edit_file", input: { path: "a.txt", oldString: "beta", newString: "gamma" } }] },
    { text: "edited again" },
  );
  expect((await runShiro(["-p", "edit it", "--yolo"], { baseURL: s.url, cwd, home })).code).toBe(0);
  const undoDir = join(sessionsDir(home), readdirSync(sessionsDir(home)).find((n) => n.endsWith(".undo"))!);
  const journal = join(undoDir, "journal.json");
  writeFileSync(journal, '{"version":1,"se');

  const refused = await runShiro(["undo"], { cwd, home });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`the record of the turns before could not be read (${journal}: not valid JSON`);
  expect(refused.stderr).toContain(", and they cannot be undone.");
  expect(refused.stderr).not.toContain("no turn of this session is left to undo");
  const aside = readdirSync(undoDir).find((n) => n.startsWith("journal.json.corrupt-"));
  expect(aside).toBeDefined();
  expect(refused.stderr).toContain(`so it was set aside as ${join(undoDir, aside!)}`);
  expect(readFileSync(join(undoDir, aside!), "utf8")).toBe('{"version":1,"se'); // kept as it was
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("beta\n");

  // A new turn is recorded afresh and undoes; the walk back then ends where the record was lost.
  expect((await runShiro(["-c", "-p", "again", "--yolo"], { baseURL: s.url, cwd, home })).code).toBe(0);
  const undone = await runShiro(["undo"], { cwd, home });
  expect(undone.code).toBe(0);
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("beta\n");
  expect(readFileSync(join(undoDir, aside!), "utf8")).toBe('{"version":1,"se');
});
