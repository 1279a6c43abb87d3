// Background jobs in the loop: ctrl-b sends the command running in the foreground there (the call
// returns its job id to the model), the live area shows the running jobs, /jobs lists them with
// their last lines, /kill stops one with its process group.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { toolOutputsIn } from "../support/requests.ts";
import { KEYS, lastUserText, usePty } from "./pty.ts";

const { serve, start } = usePty();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

test("ctrl-b sends the running command to the background; the model gets its job id; /jobs lists it and /kill stops it", async () => {
  const cwd = tempDir();
  const command = "echo $$ > watch.pid; echo watching; while true; do echo still watching; sleep 0.2; done";
  const s = await serve({ toolCalls: [{ name: "bash", input: { command } }] }, { text: "It runs in the background now." });
  const pty = await start({ baseURL: s.url, args: ["--yolo"], cwd });
  await pty.waitForPrompt(1);
  pty.line("watch the files");
  await pty.waitFor("    watching");
  const pressed = Date.now();
  pty.write("\x02"); // ctrl-b
  await pty.waitFor("It runs in the background now.");
  expect(Date.now() - pressed).toBeLessThan(3_000);
  const told = toolOutputsIn(s.requests[1]!.body).join("\n");
  expect(told).toContain("Running in the background as job 1 (the user sent it there with ctrl-b)");
  expect(told).toContain("watching");
  const pid = Number(readFileSync(join(cwd, "watch.pid"), "utf8"));
  expect(alive(pid)).toBe(true);
  // The live area names the running job while the prompt waits.
  await pty.waitUntil("the jobs line", () => /⟳ 1 job · echo \$\$ > watch\.pid; echo watching; whi… \(\d+s\)/.test(pty.screen()));
  // Its time goes on while nothing is typed.
  await pty.waitUntil("the job's time ticking", () => /whi… \([2-9]s\)/.test(pty.screen()));
  pty.line("/jobs");
  await pty.waitFor("job 1 · running");
  await pty.waitFor("    still watching");
  pty.line("/kill 1");
  await pty.waitFor("Stopped job 1 with every process it started.");
  expect(alive(pid)).toBe(false);
  await pty.waitUntil("the jobs line gone", () => !pty.screen().includes("⟳ 1 job"));
  expect(existsSync(join(cwd, "watch.pid"))).toBe(true);
}, 30_000);

test("ctrl-b with no command running moves the cursor left, as in a shell", async () => {
  const s = await serve({ text: "Typed as meant." });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.write("helo");
  pty.write("\x02"); // ctrl-b: left
  pty.write("l");
  await pty.waitUntil("the letter inserted", () => pty.cursorLine().endsWith("› hello"));
  pty.write(KEYS.enter);
  await pty.waitFor("Typed as meant.");
  expect(lastUserText(s.requests[0]!.body)).toBe("hello");
}, 20_000);

test("leaving the loop stops the jobs still running, with every process they started, and says so", async () => {
  const cwd = tempDir();
  const command = "sleep 300 & echo $! > child.pid; echo $$ > server.pid; echo serving; wait";
  const s = await serve({ toolCalls: [{ name: "bash", input: { command, background: true } }] }, { text: "The server runs." });
  const pty = await start({ baseURL: s.url, args: ["--yolo"], cwd });
  await pty.waitForPrompt(1);
  pty.line("start the server");
  await pty.waitFor("The server runs.");
  await pty.waitForPrompt(2);
  const server = Number(readFileSync(join(cwd, "server.pid"), "utf8"));
  const child = Number(readFileSync(join(cwd, "child.pid"), "utf8"));
  expect(alive(server) && alive(child)).toBe(true);
  pty.write(KEYS.ctrlD);
  await pty.exited;
  expect(pty.screen()).toContain("stopped 1 background job with every process it started: sleep 300 &");
  expect(alive(server)).toBe(false);
  expect(alive(child)).toBe(false);
}, 30_000);
