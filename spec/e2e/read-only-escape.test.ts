// Headless without the sandbox (as on macOS), commands on the read-only list run without a question.
// They must stay inside the workspace, and run the system's programs, not the repository's.
import { expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { toolOutputsIn } from "../support/requests.ts";

const serve = useFakeServer();

test("a glob through a symlink to HOME does not read the private key, nor any file out there", async () => {
  const home = tempDir("shiro-home-");
  mkdirSync(join(home, ".ssh"));
  writeFileSync(join(home, ".ssh", "id_rsa"), "-----BEGIN PRIVATE KEY----- hunter2-ssh\n");
  mkdirSync(join(home, "notes"));
  writeFileSync(join(home, "notes", "plans.txt"), "hunter2-notes\n");
  const work = tempDir();
  symlinkSync(home, join(work, "hh"));
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: "cat h*/.ssh/*" } }] },
    { toolCalls: [{ name: "bash", input: { command: "cat h*/notes/*" } }] },
    { toolCalls: [{ name: "bash", input: { command: "ls hh/../*" } }] },
    { text: "done" },
  );
  const run = await runShiro(["-p", "look around", "--no-sandbox", "--json"], { baseURL: s.url, cwd: work, home });
  expect(run.code).toBe(0);
  expect(JSON.stringify(s.requests).includes("hunter2")).toBe(false);
  expect(jsonLines(run.stdout).filter((line) => line.type === "tool-denied").map((line) => line.subject)).toEqual(["cat h*/.ssh/*", "cat h*/notes/*", "ls hh/../*"]);
});

test("a read-only command runs the system's program, not one a relative or workspace PATH entry supplies", async () => {
  const work = tempDir();
  const planted = (dir: string, name: string) => {
    mkdirSync(join(work, dir), { recursive: true });
    const file = join(work, dir, name);
    writeFileSync(file, `#!/bin/sh\ntouch "${join(work, `PWNED-${name}`)}"\necho planted\n`);
    chmodSync(file, 0o755);
  };
  planted("node_modules/.bin", "ls");
  planted("node_modules/.bin", "git");
  planted("bin", "cat");
  writeFileSync(join(work, "a.txt"), "the real a\n");
  Bun.spawnSync(["git", "init", "-q"], { cwd: work, env: { PATH: process.env.PATH!, HOME: work } });
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: "ls" } }] },
    { toolCalls: [{ name: "bash", input: { command: "cat a.txt" } }] },
    { toolCalls: [{ name: "bash", input: { command: "git status --short" } }] },
    { text: "done" },
  );
  // As a login profile may have it: a relative entry and one inside this workspace.
  const home = tempDir("shiro-home-");
  writeFileSync(join(home, ".bash_profile"), `export PATH="node_modules/.bin:${join(work, "bin")}:$PATH"\n`);
  const run = await runShiro(["-p", "look", "--no-sandbox", "--json"], { baseURL: s.url, cwd: work, home });
  expect(run.code).toBe(0);
  expect(jsonLines(run.stdout).filter((line) => line.type === "tool-denied")).toEqual([]);
  const outputs = toolOutputsIn(s.requests.at(-1)!.body);
  expect(outputs).toHaveLength(3);
  expect(outputs.join("")).not.toContain("planted");
  expect(outputs[0]).toContain("a.txt");
  expect(outputs[1]).toContain("the real a");
  expect(outputs[2]).toContain("?? a.txt");
  for (const name of ["ls", "cat", "git"]) expect(existsSync(join(work, `PWNED-${name}`))).toBe(false);
});
