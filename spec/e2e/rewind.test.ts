import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { runShiro, tempDir } from "../support/cli.ts";
import { WIRES } from "../support/requests.ts";

const serve = useFakeServer();
const sessionsDir = (home: string) => join(home, ".shiro-neko", "sessions");
const sessionFiles = (home: string) => readdirSync(sessionsDir(home)).filter((n) => /^[0-9a-f-]{36}\.json$/.test(n));
const onlySession = (home: string) => JSON.parse(readFileSync(join(sessionsDir(home), sessionFiles(home)[0]!), "utf8"));
const prompts = (record: any) => record.messages.filter((m: any) => m.role === "user" && m.providerOptions?.shiro).map((m: any) => m.content);
const texts = (body: any): string => JSON.stringify(body.input ?? body.messages);

/** Four prompts in one session: each writes `a.txt`; the second also creates `b.txt` and a task list. */
async function fourTurns(flags: readonly string[], extra: object[] = []) {
  const home = tempDir();
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "a.txt"), "zero\n");
  const write = (path: string, content: string) => ({ toolCalls: [{ name: "write_file", input: { path, content } }] });
  const s = await serve(
    write("a.txt", "one\n"),
    { text: "wrote one" },
    { toolCalls: [{ name: "todo_write", input: { todos: [{ content: "write b", status: "in_progress" }] } }] },
    write("b.txt", "bee\n"),
    write("a.txt", "two\n"),
    { text: "wrote two" },
    write("a.txt", "three\n"),
    { text: "wrote three" },
    write("a.txt", "four\n"),
    { text: "wrote four" },
    ...extra,
  );
  for (const [i, prompt] of ["first", "second", "third", "fourth"].entries()) {
    const run = await runShiro([...(i > 0 ? ["-c"] : []), "-p", prompt, "--yolo", ...flags], { baseURL: s.url, cwd, home });
    expect(run.code).toBe(0);
  }
  const id: string = onlySession(home).id;
  return { home, cwd, s, id };
}

for (const { wire, flags } of WIRES) {
  describe(`shiro rewind (${wire})`, () => {
    test("rewinding three turns restores the files, the conversation and the task list, and the strict server accepts the next request", async () => {
      const { home, cwd, s, id } = await fourTurns(flags, [{ text: "trying again" }]);
      expect(onlySession(home).notebook.todos.length).toBe(1);
      // The numbers --to takes are the ones shiro sessions show prints.
      const show = await runShiro(["sessions", "show", id], { cwd, home });
      expect(show.stdout).toContain("[2] › second");
      const rewind = await runShiro(["rewind", id.slice(0, 8), "--to", "2"], { cwd, home });
      expect(rewind.stderr).toBe("");
      expect(rewind.code).toBe(0);
      expect(rewind.stdout).toBe(
        [
          'Rewound to before prompt 2, "second" (3 turns taken back):',
          "  restored a.txt",
          "  removed b.txt",
          "The conversation and the task list are back to before that prompt.",
          "The prompt was:",
          "  second",
          "",
        ].join("\n"),
      );
      expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\n");
      expect(existsSync(join(cwd, "b.txt"))).toBe(false);
      const record = onlySession(home);
      expect(prompts(record)).toEqual(["first"]);
      expect(record.notebook.todos).toEqual([]);

      const next = await runShiro(["-c", "-p", "second, differently", "--yolo", ...flags], { baseURL: s.url, cwd, home });
      expect(next.code).toBe(0);
      expect(next.stdout).toContain("trying again");
      const sent = texts(s.requests.at(-1)!.body);
      expect(sent).toContain("first");
      expect(sent).toContain("second, differently");
      expect(sent).not.toContain("wrote two");
      expect(sent).not.toContain("write b");
    }, 30_000);
  });
}

describe("shiro rewind: halves, files changed outside, bad input", () => {
  test("a file changed outside shiro is named and nothing is rewound without --force", async () => {
    const { home, cwd, id } = await fourTurns([]);
    writeFileSync(join(cwd, "a.txt"), "my own edit\n");
    const refused = await runShiro(["rewind", id, "--to", "3"], { cwd, home });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("nothing was rewound: a.txt changed outside shiro since");
    expect(refused.stderr).toContain("--force to overwrite it with the version from before the turn");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("my own edit\n");
    expect(prompts(onlySession(home))).toEqual(["first", "second", "third", "fourth"]);

    const forced = await runShiro(["rewind", id, "--to", "3", "--force"], { cwd, home });
    expect(forced.code).toBe(0);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("two\n");
    expect(prompts(onlySession(home))).toEqual(["first", "second"]);
  }, 30_000);

  test("--conversation keeps the files; a later --files puts them back and keeps the conversation", async () => {
    const { home, cwd, id } = await fourTurns([]);
    const talk = await runShiro(["rewind", id, "--to", "3", "--conversation"], { cwd, home });
    expect(talk.code).toBe(0);
    expect(talk.stdout).toContain("The conversation and the task list are back to before that prompt.\nThe files are unchanged.");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("four\n");
    expect(prompts(onlySession(home))).toEqual(["first", "second"]);

    const files = await runShiro(["rewind", id, "--to", "2", "--files"], { cwd, home });
    expect(files.code).toBe(0);
    expect(files.stdout).toContain("  restored a.txt\n  removed b.txt\nThe conversation is unchanged.");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\n");
    expect(existsSync(join(cwd, "b.txt"))).toBe(false);
    expect(prompts(onlySession(home))).toEqual(["first", "second"]);
  }, 30_000);

  test("the goal goes back with the conversation, as it was before the chosen prompt", async () => {
    const home = tempDir();
    const cwd = tempDir("shiro-work-");
    const s = await serve({ text: "tried once" }, { text: "tried twice" });
    await runShiro(["-p", "make the tests pass", "--goal", "make the tests pass", "--max-turns", "2", "--yolo"], { baseURL: s.url, cwd, home });
    const before = onlySession(home);
    expect(before.goal).toMatchObject({ objective: "make the tests pass", turns: 2, status: "unmet" });
    expect(prompts(before).length).toBe(2); // the goal's second turn is a prompt of its own
    const rewind = await runShiro(["rewind", before.id, "--to", "2"], { cwd, home });
    expect(rewind.code).toBe(0);
    expect(onlySession(home).goal).toMatchObject({ objective: "make the tests pass", turns: 1, status: "active" });
    expect(prompts(onlySession(home))).toEqual(["make the tests pass"]);
  }, 30_000);

  test("a prompt number past the session's prompts says how many there are; --to is required", async () => {
    const { home, cwd, id } = await fourTurns([]);
    const past = await runShiro(["rewind", id, "--to", "9"], { cwd, home });
    expect(past.code).toBe(1);
    expect(past.stderr).toContain("there is no prompt 9: this session has 4 prompts (1 to 4)");
    const missing = await runShiro(["rewind", id], { cwd, home });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--to needs a prompt number");
  }, 30_000);
});
