import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { runShiro, tempDir } from "../support/cli.ts";
import { WIRES } from "../support/requests.ts";

const serve = useFakeServer();
const sessionsDir = (home: string) => join(home, ".shiro-neko", "sessions");
const ids = (home: string) => readdirSync(sessionsDir(home)).filter((n) => /^[0-9a-f-]{36}\.json$/.test(n)).map((n) => n.slice(0, -5));
const bytes = (home: string, id: string) => readFileSync(join(sessionsDir(home), `${id}.json`));
const journal = (home: string, id: string) => readFileSync(join(sessionsDir(home), `${id}.undo`, "journal.json"));
const record = (home: string, id: string) => JSON.parse(bytes(home, id).toString("utf8"));
const prompts = (r: any) => r.messages.filter((m: any) => m.role === "user" && m.providerOptions?.shiro).map((m: any) => m.content);
const sent = (body: any): string => JSON.stringify(body.input ?? body.messages);

/** One session whose single turn wrote `a.txt`. */
async function oneSession(flags: readonly string[], ...more: object[]) {
  const home = tempDir();
  const cwd = tempDir("shiro-work-");
  const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "original\n" } }] }, { text: "wrote it" }, ...more);
  expect((await runShiro(["-p", "write a", "--yolo", ...flags], { baseURL: s.url, cwd, home })).code).toBe(0);
  const [id] = ids(home);
  return { home, cwd, s, id: id! };
}

for (const { wire, flags } of WIRES) {
  describe(`forks (${wire})`, () => {
    test("a fork made by shiro sessions fork diverges while the original stays byte-identical, and rewind works in the copy", async () => {
      const { home, cwd, s, id } = await oneSession(flags, { toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "forked\n" } }] }, { text: "changed in the fork" });
      const original = bytes(home, id);
      const originalJournal = journal(home, id);
      const fork = await runShiro(["sessions", "fork", id.slice(0, 8)], { home, cwd });
      expect(fork.code).toBe(0);
      const copy = fork.stdout.trim();
      expect(copy).not.toBe(id);
      expect(fork.stderr).toContain(`shiro -r ${copy} continues the copy`);
      expect(record(home, copy)).toMatchObject({ forkedFrom: id, forkedAt: record(home, id).messages.length });

      const go = await runShiro(["-r", copy, "-p", "change it in the fork", "--yolo", ...flags], { baseURL: s.url, cwd, home });
      expect(go.code).toBe(0);
      expect(sent(s.requests.at(-2)!.body)).toContain("wrote it"); // the copy carried the conversation
      expect(prompts(record(home, copy))).toEqual(["write a", "change it in the fork"]);
      expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("forked\n");
      expect(bytes(home, id).equals(original)).toBe(true);

      // Listed under its parent, although it is the newer one.
      const list = (await runShiro(["sessions", "list"], { home, cwd })).stdout.trimEnd().split("\n");
      expect(list.length).toBe(2);
      expect(list[0]).toStartWith(id.slice(0, 8));
      expect(list[1]).toStartWith(copy.slice(0, 8));
      expect(list[1]).toContain("↳ write a");

      // The copy's journal reaches back to its parent's turn.
      const rewind = await runShiro(["rewind", copy, "--to", "1"], { cwd, home });
      expect(rewind.code).toBe(0);
      expect(rewind.stdout).toContain('Rewound to before prompt 1, "write a" (2 turns taken back):\n  removed a.txt');
      expect(prompts(record(home, copy))).toEqual([]);
      expect(bytes(home, id).equals(original)).toBe(true);
      expect(journal(home, id).equals(originalJournal)).toBe(true);
    }, 30_000);

    test("-c --fork and -r <id> --fork continue copies; the original is left as it was", async () => {
      const { home, cwd, s, id } = await oneSession(flags, { text: "answer in copy one" }, { text: "answer in copy two" });
      const original = bytes(home, id);
      const c = await runShiro(["-c", "--fork", "-p", "go on in a copy", ...flags], { baseURL: s.url, cwd, home });
      expect(c.code).toBe(0);
      expect(c.stdout).toContain("answer in copy one");
      expect(c.stderr).toContain("Continuing a copy of session");
      expect(sent(s.requests.at(-1)!.body)).toContain("write a");
      const r = await runShiro(["-r", id, "--fork", "-p", "another copy", ...flags], { baseURL: s.url, cwd, home });
      expect(r.code).toBe(0);
      expect(sent(s.requests.at(-1)!.body)).not.toContain("go on in a copy");
      expect(bytes(home, id).equals(original)).toBe(true);
      const copies = ids(home).filter((other) => other !== id);
      expect(copies.length).toBe(2);
      expect(copies.map((other) => prompts(record(home, other))).sort()).toEqual([
        ["write a", "another copy"],
        ["write a", "go on in a copy"],
      ]);
      for (const other of copies) expect(record(home, other).forkedFrom).toBe(id);
    }, 30_000);
  });
}

test("--fork without -c or -r is a usage error", async () => {
  const run = await runShiro(["--fork", "-p", "hi"], { home: tempDir(), cwd: tempDir() });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("--fork copies the session -c or -r <id> opens");
});
