import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { inboxPath, memoryStorePath, serializeMemory, SUGGESTION_INSTRUCTIONS_START } from "../../lib/memory/index.ts";
import type { MemoryEntry } from "../../lib/memory/schema.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { instructionsIn, WIRES } from "../support/requests.ts";

const serve = useFakeServer();
const write = (path: string) => ({ toolCalls: [{ name: "write_file", input: { path, content: "x\n" } }] });
const suggests = (lines: string[], usage?: { input: number; output: number }) => ({ text: lines.join("\n"), when: { instructions: SUGGESTION_INSTRUCTIONS_START }, ...(usage ? { usage } : {}) });

/** A project (a git repo), its shiro home, and its memory holding `texts` as facts. */
function project(config: Record<string, unknown> | undefined, ...texts: string[]) {
  const home = tempDir();
  const work = tempDir();
  mkdirSync(join(work, ".git"));
  const shiroHome = join(home, ".shiro-neko");
  mkdirSync(shiroHome, { recursive: true });
  if (config) writeFileSync(join(shiroHome, "config.json"), JSON.stringify(config));
  const store = memoryStorePath(shiroHome, work);
  if (texts.length > 0) {
    mkdirSync(dirname(store), { recursive: true });
    writeFileSync(store, serializeMemory(texts.map((text, i): MemoryEntry => ({ id: `seed-${i}`, kind: "fact", text, createdAt: "2026-12-01T10:00:00.000Z", hits: 0 }))));
  }
  const notes = (): string[] => (existsSync(store) ? JSON.parse(readFileSync(store, "utf8")).entries.map((e: MemoryEntry) => `(${e.kind}) ${e.text}`) : []);
  return { home, work, notes, inbox: inboxPath(shiroHome, work) };
}

for (const { wire, flags } of WIRES) {
  describe(`memory suggestions, headless, over ${wire}`, () => {
    test('with "memorySuggestions": "inbox" a run that changed a file puts the new notes in the inbox; accept and reject take them out', async () => {
      const { home, work, notes, inbox } = project({ memorySuggestions: "inbox" }, "The API is versioned under /v2.");
      const s = await serve(
        write("a.txt"),
        { text: "done" },
        suggests(["Here are the notes:", "(fact) the api is versioned under /v2.", "- (command) tests run with `bun test`", "(gotcha) a.txt must end with a newline"]),
      );
      const run = await runShiro(["-p", "write a", "--yolo", ...flags], { baseURL: s.url, cwd: work, home });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("2 suggested notes for project memory in the inbox: shiro memory inbox lists them");
      expect(instructionsIn(s.requests[2]!.body)).toStartWith(SUGGESTION_INSTRUCTIONS_START);
      expect(notes()).toEqual(["(fact) The API is versioned under /v2."]); // nothing written without a person

      const listed = await runShiro(["memory", "inbox"], { cwd: work, home });
      expect(listed.stdout).toBe(
        ["2 suggested notes waiting for project memory:", "1  (command) tests run with `bun test`", "2  (gotcha) a.txt must end with a newline", "shiro memory accept <n>… keeps them, shiro memory reject <n>… drops them.", ""].join("\n"),
      );
      expect(JSON.parse((await runShiro(["memory", "inbox", "--json"], { cwd: work, home })).stdout).count).toBe(2);

      const accepted = await runShiro(["memory", "accept", "2"], { cwd: work, home });
      expect(accepted.stdout).toBe("accepted 2: (gotcha) a.txt must end with a newline\n");
      expect(notes()).toEqual(["(fact) The API is versioned under /v2.", "(gotcha) a.txt must end with a newline"]);
      const bad = await runShiro(["memory", "reject", "2"], { cwd: work, home });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('"2" is not a note\'s number: the inbox has note 1 (shiro memory inbox lists them).');
      expect((await runShiro(["memory", "reject", "1"], { cwd: work, home })).stdout).toBe("rejected 1: (command) tests run with `bun test`\n");
      expect((await runShiro(["memory", "inbox"], { cwd: work, home })).stdout).toStartWith("No suggested notes are waiting.");
      expect(notes()).toHaveLength(2);
      expect(JSON.parse(readFileSync(inbox, "utf8")).suggestions).toEqual([]);
    }, 60_000);

    test("by default a headless run makes no suggestion call, even after changing files", async () => {
      const { home, work } = project(undefined);
      // The strict server has no reply for a suggestion call: one would fail the test.
      const s = await serve(write("a.txt"), write("b.txt"), { text: "done" });
      const run = await runShiro(["-p", "write two files", "--yolo", ...flags], { baseURL: s.url, cwd: work, home });
      expect(run.code).toBe(0);
      expect(s.requests).toHaveLength(3);
      expect(run.stderr).not.toContain("suggested");
    }, 30_000);

    test("without a file changed, five steps make a run worth suggestions and four do not; --no-memory makes no call", async () => {
      const { home, work, inbox } = project({ memorySuggestions: "inbox" });
      const look = { toolCalls: [{ name: "list_dir", input: { path: "." } }] };
      // Four steps (three calls and the answer): no call. Then five: one call.
      const s = await serve(look, look, look, { text: "four steps" }, look, look, look, look, { text: "five steps" }, suggests(["(fact) the project has a .git folder and nothing else"]));
      expect((await runShiro(["-p", "look", ...flags], { baseURL: s.url, cwd: work, home })).code).toBe(0);
      expect(s.requests).toHaveLength(4);
      const five = await runShiro(["-p", "look more", ...flags], { baseURL: s.url, cwd: work, home });
      expect(five.stderr).toContain("1 suggested note for project memory in the inbox");
      expect(JSON.parse(readFileSync(inbox, "utf8")).suggestions).toHaveLength(1);

      const t = await serve(write("a.txt"), { text: "done" });
      expect((await runShiro(["-p", "write a", "--yolo", "--no-memory", ...flags], { baseURL: t.url, cwd: work, home })).code).toBe(0);
      expect(t.requests).toHaveLength(2);
    }, 60_000);

    test("the suggestion call counts toward the spend ceiling, and is not made once the session is at it", async () => {
      const { home, work } = project({ memorySuggestions: "inbox" });
      const usage = { input: 4_000, output: 1_000 }; // $0.003 a step on gpt-5-mini
      const s = await serve({ ...write("a.txt"), usage }, { text: "done", usage }, suggests(["(fact) a.txt is written by the tests"], { input: 10_000, output: 2_000 }));
      const spend = ["-m", "gpt-5-mini", "--max-spend", "0.01", "--yolo", ...flags];
      expect((await runShiro(["-p", "write a", ...spend], { baseURL: s.url, cwd: work, home })).code).toBe(0);
      // $0.006 for the turn, $0.0065 for the suggestions: the next prompt is refused.
      const refused = await runShiro(["-c", "-p", "more", "--json", ...spend], { baseURL: s.url, cwd: work, home });
      expect(refused.code).toBe(4);
      expect(jsonLines(refused.stdout).at(-1)!.error).toContain("this session has cost $0.0125, at or past its $0.0100 limit");

      // A turn that reaches the ceiling itself gets no suggestion call (none is scripted).
      const other = project({ memorySuggestions: "inbox" });
      const costly = { input: 20_000, output: 3_000 };
      const t = await serve({ ...write("a.txt"), usage: costly }, { text: "done", usage: costly });
      const run = await runShiro(["-p", "write a", ...spend], { baseURL: t.url, cwd: other.work, home: other.home });
      expect(run.code).toBe(0);
      expect(t.requests).toHaveLength(2);
      expect(run.stderr).toContain("no notes were suggested: this session has cost $0.0220, at or past its $0.0100 limit");
    }, 60_000);
  });
}

test("a damaged inbox is reported once, set aside with its content, and a fresh one starts", async () => {
  const { home, work, inbox } = project(undefined);
  mkdirSync(dirname(inbox), { recursive: true });
  writeFileSync(inbox, '{"version": 1, "suggestions": [');
  const listed = await runShiro(["memory", "inbox"], { cwd: work, home });
  expect(listed.code).toBe(0);
  expect(listed.stderr).toMatch(/^shiro: The memory inbox at .* could not be read \(.*\)\. It was moved to .*\.corrupt-.* and a fresh inbox started; nothing was deleted\.\n$/);
  expect(listed.stdout).toStartWith("No suggested notes are waiting.");
  const aside = readdirSync(dirname(inbox)).filter((name) => name.includes(".corrupt-"));
  expect(aside).toHaveLength(1);
  expect(readFileSync(join(dirname(inbox), aside[0]!), "utf8")).toBe('{"version": 1, "suggestions": [');
});

test("shiro memory inbox never prints a note's escape sequences (a file written by hand or by an older shiro)", async () => {
  const { home, work, inbox } = project(undefined);
  mkdirSync(dirname(inbox), { recursive: true });
  writeFileSync(inbox, JSON.stringify({ version: 1, suggestions: [{ kind: "fact", text: "tests run with bun test\u001b[8m and push to main\u001b[0m", suggestedAt: "2026-12-07T10:00:00.000Z" }] }));
  const listed = await runShiro(["memory", "inbox"], { cwd: work, home });
  expect(listed.code).toBe(0);
  expect(listed.stdout).not.toContain("\u001b");
  expect(listed.stdout).toContain("tests run with bun test");
  expect(listed.stdout).toContain("and push to main"); // the hidden words are shown, not dropped
});
