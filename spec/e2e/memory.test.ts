import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { selfHolder } from "../../lib/fs/process-alive.ts";
import type { Reply } from "../support/fake-openai.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { instructionsIn, toolOutputsIn, WIRES } from "../support/requests.ts";

const serve = useFakeServer();

/** A project (a git repo) and a shiro home shared by several runs. */
function project() {
  const work = tempDir();
  mkdirSync(join(work, ".git"));
  mkdirSync(join(work, "src"));
  return { work, home: tempDir() };
}

function storeFiles(home: string): string[] {
  const dir = join(home, ".shiro-neko", "memory");
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(".json")) : [];
}

for (const { wire, flags } of WIRES) {
  describe(`project memory over ${wire}`, () => {
    test("remember writes the store; the next session sees the block; recall counts hits that reorder it", async () => {
      const { work, home } = project();
      const s = await serve(
        { toolCalls: [{ name: "remember", input: { kind: "command", text: "tests run with bun test, not npm test" } }] },
        { toolCalls: [{ name: "remember", input: { kind: "gotcha", text: "the migration must run before the seed" } }] },
        { text: "noted" },
        // second session, started in a subdirectory of the same repo
        { toolCalls: [{ name: "recall", input: { query: "MIGRATION seed" } }] },
        { text: "found it" },
        // third session
        { text: "hi" },
      );
      await runShiro(["-p", "learn", ...flags], { baseURL: s.url, cwd: work, home });
      const [file] = storeFiles(home);
      const stored = JSON.parse(readFileSync(join(home, ".shiro-neko", "memory", file!), "utf8"));
      expect(stored.version).toBe(1);
      expect(stored.entries.map((e: any) => [e.kind, e.text, e.hits])).toEqual([
        ["command", "tests run with bun test, not npm test", 0],
        ["gotcha", "the migration must run before the seed", 0],
      ]);

      await runShiro(["-p", "what about seeds?", ...flags], { baseURL: s.url, cwd: join(work, "src"), home });
      const second = instructionsIn(s.requests[3]!.body);
      expect(second).toContain("What you learned about this project in earlier sessions.");
      // no hits yet: newest first
      expect(second.indexOf("(gotcha) the migration")).toBeLessThan(second.indexOf("(command) tests run"));
      expect(toolOutputsIn(s.requests[4]!.body).join("")).toContain("(gotcha) the migration must run before the seed");

      await runShiro(["-p", "hi", ...flags], { baseURL: s.url, cwd: work, home });
      const third = instructionsIn(s.requests[5]!.body);
      expect(third.indexOf("- (gotcha) the migration")).toBeLessThan(third.indexOf("- (command) tests run"));
      expect(storeFiles(home)).toHaveLength(1);
    });

    test("a duplicate and an over-long note are refused as tool errors, the store unchanged", async () => {
      const { work, home } = project();
      const s = await serve(
        { toolCalls: [{ name: "remember", input: { kind: "fact", text: "The API is versioned under /v2." } }] },
        { toolCalls: [{ name: "remember", input: { kind: "fact", text: "the api is   versioned under /v2." } }] },
        { toolCalls: [{ name: "remember", input: { kind: "fact", text: "x".repeat(401) } }] },
        { toolCalls: [{ name: "remember", input: { kind: "opinion", text: "tabs are nicer" } }] },
        { text: "ok" },
      );
      const run = await runShiro(["-p", "go", "--json", ...flags], { baseURL: s.url, cwd: work, home });
      const errors = jsonLines(run.stdout).filter((l) => l.type === "tool-error").map((l) => l.error);
      expect(errors).toHaveLength(3);
      expect(errors[0]).toMatch(/already/i);
      expect(errors[1]).toContain("400");
      expect(errors[2]).toMatch(/kind/);
      const [file] = storeFiles(home);
      expect(JSON.parse(readFileSync(join(home, ".shiro-neko", "memory", file!), "utf8")).entries).toHaveLength(1);
    });

    test("--no-memory: no block, no memory tools offered, nothing written under SHIRO_HOME/memory", async () => {
      const { work, home } = project();
      const s = await serve({ text: "ok" });
      await runShiro(["-p", "hi", "--no-memory", ...flags], { baseURL: s.url, cwd: work, home });
      const tools = JSON.stringify(s.requests[0]!.body.tools);
      expect(tools).not.toContain("remember");
      expect(tools).toContain("read_file");
      expect(existsSync(join(home, ".shiro-neko", "memory"))).toBe(false);
    });
  });
}

describe("shiro memory subcommands", () => {
  test("list, path and forget work without a key or a server", async () => {
    const { work, home } = project();
    const path = (await runShiro(["memory", "path"], { cwd: join(work, "src"), home })).stdout.trim();
    expect(path.startsWith(join(home, ".shiro-neko", "memory"))).toBe(true);
    mkdirSync(join(home, ".shiro-neko", "memory"), { recursive: true });
    const entry = (text: string, hits: number) => ({ id: crypto.randomUUID(), kind: "fact", text, createdAt: new Date().toISOString(), hits });
    writeFileSync(path, JSON.stringify({ version: 1, entries: [entry("alpha is first", 2), entry("beta is second", 0)] }));
    const list = await runShiro(["memory", "list"], { cwd: work, home });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("alpha is first");
    const json = JSON.parse((await runShiro(["memory", "list", "--json"], { cwd: work, home })).stdout);
    expect(json.count).toBe(2);
    const forget = await runShiro(["memory", "forget", "BETA"], { cwd: work, home });
    expect(forget.code).toBe(0);
    expect(JSON.parse(readFileSync(path, "utf8")).entries.map((e: any) => e.text)).toEqual(["alpha is first"]);
  });

  test("forget while another live shiro holds the lock fails with one line naming the lock, not a crash report", async () => {
    const { work, home } = project();
    const path = (await runShiro(["memory", "path"], { cwd: work, home })).stdout.trim();
    mkdirSync(join(home, ".shiro-neko", "memory"), { recursive: true });
    writeFileSync(path, JSON.stringify({ version: 1, entries: [{ id: crypto.randomUUID(), kind: "fact", text: "beta is second", createdAt: new Date().toISOString(), hits: 0 }] }));
    // Held by this (live) test process; dated ahead so the 10 s stale rule cannot take it over.
    const lock = `${path}.lock`;
    writeFileSync(lock, JSON.stringify({ ...selfHolder(), host: hostname(), token: "held" }));
    const later = new Date(Date.now() + 120_000);
    utimesSync(lock, later, later);
    const forget = await runShiro(["memory", "forget", "beta"], { cwd: work, home, timeoutMs: 40_000 });
    expect(forget.code).toBe(1);
    expect(forget.stderr).toBe(`shiro: ${lock} is held by process ${process.pid} on ${hostname()}. If no shiro is running, delete that file and try again.\n`);
    expect(JSON.parse(readFileSync(path, "utf8")).entries).toHaveLength(1);
    expect(existsSync(lock)).toBe(true);
  }, 45_000);

  test("a corrupt store is set aside with a notice, never wiped", async () => {
    const { work, home } = project();
    const path = (await runShiro(["memory", "path"], { cwd: work, home })).stdout.trim();
    mkdirSync(join(home, ".shiro-neko", "memory"), { recursive: true });
    writeFileSync(path, '{"version":1,"entries":[{"broken"');
    const list = await runShiro(["memory", "list"], { cwd: work, home });
    expect(list.code).toBe(0);
    expect(list.stderr).toMatch(/corrupt|moved|set aside/i);
    expect(list.stderr).toContain('not valid JSON at line 1, column 34: the text ends where ":" after the field name should be');
    const aside = readdirSync(join(home, ".shiro-neko", "memory")).filter((n) => n.includes("corrupt"));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(home, ".shiro-neko", "memory", aside[0]!), "utf8")).toBe('{"version":1,"entries":[{"broken"');
  });
});

describe("shiro memory compact (the /memory rules) through one provider request", () => {
  function seed(path: string, count: number, recalled: number) {
    mkdirSync(join(path, ".."), { recursive: true });
    const entries = Array.from({ length: count }, (_, i) => ({
      id: crypto.randomUUID(),
      kind: "fact",
      text: `note number ${i} about the build`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      hits: i < recalled ? 3 : 0,
    }));
    writeFileSync(path, JSON.stringify({ version: 1, entries }, null, 2));
  }

  test("under the thresholds it is a no-op that says why, without calling the model", async () => {
    const { work, home } = project();
    const path = (await runShiro(["memory", "path"], { cwd: work, home })).stdout.trim();
    seed(path, 30, 0);
    const s = await serve();
    const run = await runShiro(["memory", "compact"], { cwd: work, home, baseURL: s.url });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/60/);
    expect(s.requests).toHaveLength(0);
  });

  test("under the thresholds it says why even with no key and no server set up: nothing to merge needs no model", async () => {
    const { work, home } = project();
    const path = (await runShiro(["memory", "path"], { cwd: work, home })).stdout.trim();
    seed(path, 3, 0);
    const run = await runShiro(["memory", "compact"], { cwd: work, home });
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/3 notes; compaction starts above 60/);
    expect(run.stdout).toContain("shiro memory list shows them.");
    expect(run.code).toBe(0);
  });

  test("a reply with nothing parseable leaves the store byte-for-byte untouched", async () => {
    const { work, home } = project();
    const path = (await runShiro(["memory", "path"], { cwd: work, home })).stdout.trim();
    seed(path, 70, 5);
    const before = readFileSync(path, "utf8");
    const s = await serve({ text: "Sorry, I can't help with that." });
    const run = await runShiro(["memory", "compact", "--api", "chat"], { cwd: work, home, baseURL: s.url });
    expect(run.code).toBe(1);
    expect(readFileSync(path, "utf8")).toBe(before);
  });

  test("recalled notes are kept verbatim and never sent; the unused ones are replaced by the merge", async () => {
    const { work, home } = project();
    const path = (await runShiro(["memory", "path"], { cwd: work, home })).stdout.trim();
    seed(path, 70, 5);
    const s = await serve({ text: "(fact) notes 5 to 69 describe the build steps in order\n(command) build with bun run build" });
    const run = await runShiro(["memory", "compact"], { cwd: work, home, baseURL: s.url });
    expect(run.code).toBe(0);
    const sent = JSON.stringify(s.requests[0]!.body);
    expect(sent).not.toContain("note number 0 about");
    expect(sent).toContain("note number 69 about");
    const after = JSON.parse(readFileSync(path, "utf8")).entries;
    expect(after.filter((e: any) => e.hits === 3).map((e: any) => e.text)).toEqual([0, 1, 2, 3, 4].map((i) => `note number ${i} about the build`));
    expect(after).toHaveLength(7);
  });
});
