// The sessions list marks a session whose runs got no answer (nothing is lost: it is kept), and
// tells it apart from one that got answers before its last turn failed; `-c -p` retries it.
import { expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, runShiro, shiroCommand, shiroEnv, tempDir } from "../support/cli.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

const serve = useFakeServer();
const REFUSED = { status: 400, body: { error: { message: "Invalid model id", type: "invalid_request_error" } } };
const sessionsDir = (home: string) => join(home, ".shiro-neko", "sessions");
const list = async (home: string, cwd: string) => (await runShiro(["sessions", "list"], { home, cwd })).stdout;
const listJson = async (home: string, cwd: string) => jsonLines((await runShiro(["sessions", "list", "--json"], { home, cwd })).stdout);

test("a headless run the server refused is kept and listed as failed (no answer); -c -p retries it and the mark goes", async () => {
  const home = tempDir();
  const work = tempDir();
  const s = await serve(REFUSED, { text: "hello there" });
  const failed = await runShiro(["-p", "hi"], { baseURL: s.url, cwd: work, home });
  expect(failed.code).toBe(1);
  expect(await list(home, work)).toMatch(/ hi +1 msg +failed \(no answer\)$/m);
  expect((await listJson(home, work)).map((row) => row.outcome)).toEqual(["no-answer"]);

  const again = await runShiro(["-c", "-p", "hi"], { baseURL: s.url, cwd: work, home });
  expect(again.code).toBe(0);
  expect(again.stdout).toBe("hello there\n");
  const listed = await list(home, work);
  expect(listed).toMatch(/ hi +2 msgs$/m);
  expect(listed).not.toContain("failed");
  expect((await listJson(home, work)).map((row) => row.outcome)).toEqual([null]);
});

test("a session that got answers and whose next run failed reads 'last turn failed', not 'no answer'", async () => {
  const home = tempDir();
  const work = tempDir();
  const s = await serve({ text: "the first answer" }, REFUSED);
  expect((await runShiro(["-p", "first question"], { baseURL: s.url, cwd: work, home })).code).toBe(0);
  expect((await runShiro(["-c", "-p", "second question"], { baseURL: s.url, cwd: work, home })).code).toBe(1);
  const listed = await list(home, work);
  expect(listed).toMatch(/first question +3 msgs +last turn failed$/m);
  expect(listed).not.toContain("no answer");
  expect((await listJson(home, work)).map((row) => row.outcome)).toEqual(["last-turn-failed"]);
});

test("a run killed while it waited for the first answer is kept and listed as failed (no answer)", async () => {
  const home = tempDir();
  const work = tempDir();
  const s = await serve({ fault: "hang" });
  const child = Bun.spawn([...shiroCommand(), "-p", "are you there"], { cwd: work, env: shiroEnv(home, s.url), stdout: "pipe", stderr: "pipe" });
  const deadline = Date.now() + 10_000;
  const saved = () => existsSync(sessionsDir(home)) && readdirSync(sessionsDir(home)).some((name) => name.endsWith(".json"));
  while ((s.requests.length === 0 || !saved()) && Date.now() < deadline) await Bun.sleep(20);
  child.kill("SIGKILL");
  await child.exited;
  expect(await list(home, work)).toMatch(/are you there +1 msg +failed \(no answer\)$/m);
});
