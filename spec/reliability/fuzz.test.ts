// Reduced fuzzing (the full run fuzzes 1,000 files: `bun scripts/reliability.ts`): damaged session,
// memory, config and prompt-history files from a seeded generator, opened by the real CLI. No crash,
// one-line messages naming the file, damaged files kept byte for byte, usable ones never emptied.
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baseFile } from "../support/reliability/fuzz-files.ts";
import { runFuzzCheck } from "../support/reliability/fuzz.ts";
import { crashSign } from "../support/reliability/support.ts";
import { runShiro, tempDir } from "../support/cli.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

const serve = useFakeServer();

test("100 damaged or adversarial state files (seed 1): no crash, a clear message, nothing lost", async () => {
  const f = await runFuzzCheck({ files: 100, seed: 1, hugeBytes: 1024 * 1024, heavyShare: 0.2 });
  expect(f.problems).toEqual([]);
  expect(f.runs).toBe(100);
}, 60_000);

// Found by the fuzzer: JSON.parse reads nesting that JSON.stringify cannot write back, so such a
// session loaded and then crashed shiro ("unexpected error: Maximum call stack size exceeded").
test("a session nested 100,000 levels deep is reported as damaged and left as it was", async () => {
  const home = tempDir();
  const work = tempDir();
  const base = baseFile("session", { cwd: work, projectRoot: work, hugeBytes: 0 });
  base.value.messages[1].content[0].text = "SLOT";
  const text = JSON.stringify(base.value).replace('"SLOT"', "[".repeat(100_000) + "1" + "]".repeat(100_000));
  const dir = join(home, ".shiro-neko", "sessions");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${base.id}.json`);
  writeFileSync(path, text);
  const server = await serve(); // no replies: any request at all fails the test
  const run = await runShiro(["-r", base.id!, "-p", "carry on"], { home, cwd: work, baseURL: server.url });
  expect(crashSign(run)).toBeUndefined();
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`is corrupt (nested more than 1000 levels deep`);
  expect(run.stderr).toContain(path);
  expect(readFileSync(path, "utf8")).toBe(text);
});

// Found by the fuzzer: the message quoted the whole wrong value, a megabyte with newlines in it.
test("a config value that is a huge multi-line string is reported on one short line, exit 2", async () => {
  const home = tempDir();
  mkdirSync(join(home, ".shiro-neko"), { recursive: true });
  const config = JSON.stringify({ permission: { write_file: "allow\n".repeat(200_000) } });
  writeFileSync(join(home, ".shiro-neko", "config.json"), config);
  const run = await runShiro(["-p", "hello"], { home, baseURL: "http://127.0.0.1:9/v1" });
  expect(run.code).toBe(2);
  expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(run.stderr.length).toBeLessThan(600);
  expect(run.stderr).toMatch(/^shiro: config file .*permission\.write_file/);
  expect(readFileSync(join(home, ".shiro-neko", "config.json"), "utf8")).toBe(config);
});

// Found by the fuzzer: invalid UTF-8 in the config file was replaced by U+FFFD without a word.
test("a config file that is not valid UTF-8 is reported with exit 2 and left as it was", async () => {
  const home = tempDir();
  mkdirSync(join(home, ".shiro-neko"), { recursive: true });
  const bytes = Buffer.concat([Buffer.from('{"model": "gpt'), Buffer.from([0xff, 0xfe]), Buffer.from('-5"}')]);
  writeFileSync(join(home, ".shiro-neko", "config.json"), bytes);
  const run = await runShiro(["-p", "hello"], { home, baseURL: "http://127.0.0.1:9/v1" });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/^shiro: config file .*config\.json is not valid UTF-8/);
  expect(Buffer.compare(readFileSync(join(home, ".shiro-neko", "config.json")), bytes)).toBe(0);
});

// Found by the fuzzer: the "corrupt" message quoted the wrong value whole (2.5 MB), and the end of
// the line, with the file's path, was lost when the process exited.
test("a session whose token count is a 2 MB string is reported on one short line naming the file", async () => {
  const home = tempDir();
  const work = tempDir();
  const base = baseFile("session", { cwd: work, projectRoot: work, hugeBytes: 0 });
  base.value.inputTokens = "😀".repeat(500_000);
  const dir = join(home, ".shiro-neko", "sessions");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${base.id}.json`);
  writeFileSync(path, JSON.stringify(base.value));
  const run = await runShiro(["sessions", "show", base.id!], { home, cwd: work });
  expect(run.code).toBe(2);
  expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(run.stderr.length).toBeLessThan(1_000);
  expect(run.stderr).toContain(path);
});

// Found by the fuzzer: a message with a role but content of null (or true, or parts without a type)
// passed the schema, then crashed every turn ("unexpected error: null is not an object").
test("a session with a message whose content is null is reported as damaged, not crashed on", async () => {
  const home = tempDir();
  const work = tempDir();
  const base = baseFile("session", { cwd: work, projectRoot: work, hugeBytes: 0 });
  base.value.messages[3].content = null;
  const dir = join(home, ".shiro-neko", "sessions");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${base.id}.json`);
  const text = JSON.stringify(base.value);
  writeFileSync(path, text);
  const server = await serve(); // no replies: any request at all fails the test
  const run = await runShiro(["-r", base.id!, "-p", "carry on"], { home, cwd: work, baseURL: server.url });
  expect(crashSign(run)).toBeUndefined();
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("is corrupt (messages.3: has content that is neither text nor a list of parts)");
  expect(readFileSync(path, "utf8")).toBe(text);
});

// Found by the fuzzer: a title edited to a megabyte was printed whole in the exit message.
test("a session whose title is 1 MB still ends with a short exit message", async () => {
  const home = tempDir();
  const work = tempDir();
  const base = baseFile("session", { cwd: work, projectRoot: work, hugeBytes: 0 });
  base.value.title = "a very long title ".repeat(60_000);
  const dir = join(home, ".shiro-neko", "sessions");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${base.id}.json`), JSON.stringify(base.value));
  const server = await serve({ text: "carrying on" });
  const run = await runShiro(["-r", base.id!, "-p", "carry on"], { home, cwd: work, baseURL: server.url });
  const list = await runShiro(["sessions", "list", "--all"], { home, cwd: work });
  expect(run.code).toBe(0);
  expect(Math.max(...run.stderr.split("\n").map((l) => l.length))).toBeLessThan(200);
  expect(Math.max(...list.stdout.split("\n").map((l) => l.length))).toBeLessThan(200);
});

// Found by the fuzzer: a prompt of over a million lines (a piped log) overflowed `push(...lines)`.
test("a session holding a prompt of millions of lines can be shown and exported", async () => {
  const home = tempDir();
  const work = tempDir();
  const base = baseFile("session", { cwd: work, projectRoot: work, hugeBytes: 0 });
  base.value.messages[0].content = "a\n".repeat(1_200_000);
  const dir = join(home, ".shiro-neko", "sessions");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${base.id}.json`), JSON.stringify(base.value));
  for (const args of [["sessions", "show", base.id!], ["sessions", "export", base.id!, "--format", "md"]]) {
    const run = await runShiro(args, { home, cwd: work });
    expect(crashSign(run)).toBeUndefined();
    expect(run.code).toBe(0);
  }
});
