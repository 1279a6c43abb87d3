// Background commands through the binary: bash with `background: true` returns a job at once, the
// jobs tool reads its output and stops it, a job still running at the end of the run is stopped
// with its process group, and one left by a shiro killed with -9 is stopped by the next start.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, shiroCommand, shiroEnv, tempDir } from "../support/cli.ts";
import { toolOutputsIn, WIRES } from "../support/requests.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { SANDBOX_AS_THE_HOST_HAS_IT, sandboxUnavailable } from "../support/host-tools.ts";

const serve = useFakeServer();

/** Whether process `pid` exists (a zombie counts as gone: it runs nothing). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

async function until(what: () => boolean, ms = 10_000): Promise<void> {
  for (let waited = 0; !what(); waited += 50) {
    if (waited > ms) throw new Error("timed out waiting");
    await Bun.sleep(50);
  }
}

const pidIn = (path: string) => Number(readFileSync(path, "utf8").trim());

/** A "server": says it listens, writes its pid and that of a child it started, then ticks. */
const SERVER = "sleep 300 & echo $! > child.pid; echo $$ > server.pid; echo listening on 4000; while true; do echo tick; sleep 0.1; done";

describe("background commands in the sandbox", () => {
  test("a sandboxed job runs, its output is read, and the end of the run stops it", async () => {
    const why = sandboxUnavailable();
    if (why) return void console.error(`skipped: the sandbox cannot run here: ${why}`);
    const marker = `sleep 301.${process.pid}`;
    const s = await serve(
      { toolCalls: [{ name: "bash", input: { command: `${marker} & echo sandboxed job up; wait`, background: true } }] },
      { toolCalls: [{ name: "jobs", input: { operation: "list" } }] },
      { text: "started" },
    );
    const run = await runShiro(["-p", "start it", "--yolo"], { baseURL: s.url, env: SANDBOX_AS_THE_HOST_HAS_IT });
    expect(run.code).toBe(0);
    expect(toolOutputsIn(s.requests[1]!.body).join("")).toContain("sandboxed job up");
    expect(toolOutputsIn(s.requests[2]!.body).join("")).toMatch(/job 1 · running \d+s/);
    expect(run.stderr).toContain("stopped 1 background job with every process it started");
    await until(() => Bun.spawnSync(["pgrep", "-f", marker]).stdout.toString().trim() === "", 3_000);
  });
});

for (const { wire, flags } of WIRES) {
  describe(`background commands over ${wire}`, () => {
    test("a background server starts at once, its output is read, and kill stops it with its children", async () => {
      const work = tempDir();
      const s = await serve(
        { toolCalls: [{ name: "bash", input: { command: SERVER, background: true } }] },
        { toolCalls: [{ name: "jobs", input: { operation: "output", id: 1, wait: 2 } }] },
        { toolCalls: [{ name: "jobs", input: { operation: "list" } }] },
        { toolCalls: [{ name: "jobs", input: { operation: "kill", id: 1 } }] },
        { text: "done" },
      );
      const started = Date.now();
      const run = await runShiro(["-p", "start the server", "--yolo", ...flags], { baseURL: s.url, cwd: work });
      expect(run.code).toBe(0);
      // It returned at once: the whole run took far less than the server would run.
      expect(Date.now() - started).toBeLessThan(15_000);
      const first = toolOutputsIn(s.requests[1]!.body).join("");
      expect(first).toContain("Running in the background as job 1");
      expect(first).toContain("listening on 4000");
      const read = toolOutputsIn(s.requests[2]!.body).join("");
      expect(read).toMatch(/Job 1 is running \d+s/);
      expect(read).toContain("tick");
      expect(toolOutputsIn(s.requests[3]!.body).join("")).toMatch(/job 1 · running \d+s · sleep 300 &/);
      expect(toolOutputsIn(s.requests[4]!.body).join("")).toContain("Job 1 was stopped with every process it started.");
      const server = pidIn(join(work, "server.pid"));
      const child = pidIn(join(work, "child.pid"));
      await until(() => !alive(server) && !alive(child), 3_000);
      // Stopped by the model, so nothing is left for the end of the run to stop.
      expect(run.stderr).not.toContain("stopped 1 background job");
    });

    test("a job still running when the run ends is stopped with every process it started, and shiro says so", async () => {
      const work = tempDir();
      const home = tempDir("shiro-home-");
      const s = await serve({ toolCalls: [{ name: "bash", input: { command: SERVER, background: true } }] }, { text: "started" });
      const run = await runShiro(["-p", "start the server", "--yolo", "--json", ...flags], { baseURL: s.url, cwd: work, home });
      expect(run.code).toBe(0);
      const events = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
      expect(events).toContainEqual({ type: "notice", message: expect.stringMatching(/^stopped 1 background job with every process it started: sleep 300 &/) });
      const server = pidIn(join(work, "server.pid"));
      const child = pidIn(join(work, "child.pid"));
      expect(alive(server)).toBe(false);
      expect(alive(child)).toBe(false);
      // Its output was kept beside the session.
      const id = events.at(-1).sessionId;
      expect(readFileSync(join(home, ".shiro-neko", "sessions", `${id}.jobs`, "1.log"), "utf8")).toStartWith("listening on 4000\ntick\n");
    });

    test("a job left by a shiro killed with -9 is stopped by the next start, and only it", async () => {
      const work = tempDir();
      const home = tempDir("shiro-home-");
      const s = await serve(
        { toolCalls: [{ name: "bash", input: { command: SERVER, background: true } }] },
        // The turn then waits in a foreground command while shiro is killed.
        { toolCalls: [{ name: "bash", input: { command: "echo $$ > fg.pid; sleep 30" } }] },
        { text: "never read" },
      );
      serve.allowLeftovers("shiro is killed while its command runs");
      const shiro = Bun.spawn([...shiroCommand(), "-p", "start the server", "--yolo", ...flags], { cwd: work, env: shiroEnv(home, s.url), stdout: "ignore", stderr: "ignore" });
      try {
        await until(() => existsSync(join(work, "fg.pid")) && existsSync(join(work, "server.pid")));
        shiro.kill("SIGKILL");
        await shiro.exited;
      } finally {
        shiro.kill("SIGKILL");
      }
      const fg = pidIn(join(work, "fg.pid"));
      process.kill(-fg, "SIGKILL"); // the foreground command was no job: this spec's to clean up
      const server = pidIn(join(work, "server.pid"));
      const child = pidIn(join(work, "child.pid"));
      try {
        // Killed with -9, shiro stopped nothing: the job runs on, written in the journal.
        expect(alive(server)).toBe(true);
        const journal = join(home, ".shiro-neko", "jobs");
        expect(readdirSync(journal).map((name) => readFileSync(join(journal, name), "utf8")).join("\n")).toContain(`"pid": ${server}`);
        const next = await serve({ text: "hello" });
        const run = await runShiro(["-p", "hi", ...flags], { baseURL: next.url, cwd: work, home });
        expect(run.code).toBe(0);
        expect(run.stderr).toContain("stopped a background job an earlier shiro left running (it ended without stopping it): sleep 300 &");
        await until(() => !alive(server) && !alive(child), 3_000);
        expect(readdirSync(journal)).toEqual([]); // the gone shiro's file went with its jobs
      } finally {
        // Whatever happened, this spec leaves nothing running.
        for (const pid of [server, child]) if (alive(pid)) process.kill(pid, "SIGKILL");
      }
    });

    test("a background command is judged as any command: headless without --yolo a writing one is denied, a read-only one runs", async () => {
      const work = tempDir();
      const s = await serve(
        { toolCalls: [{ name: "bash", input: { command: "touch made-by-job", background: true } }] },
        { toolCalls: [{ name: "bash", input: { command: "echo looking", background: true } }] },
        { text: "done" },
      );
      const run = await runShiro(["-p", "try it", ...flags], { baseURL: s.url, cwd: work });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("⊘ bash touch made-by-job: not run (headless without --yolo)");
      expect(existsSync(join(work, "made-by-job"))).toBe(false);
      expect(toolOutputsIn(s.requests[2]!.body).at(-1)).toContain("Running in the background as job 1.");
      expect(toolOutputsIn(s.requests[2]!.body).at(-1)).toContain("looking");
    });

    test("a job that ends on its own is told to the model once, with the next command's result", async () => {
      const s = await serve(
        { toolCalls: [{ name: "bash", input: { command: "sleep 1.5; echo built; exit 3", background: true } }] },
        { toolCalls: [{ name: "bash", input: { command: "sleep 2.5" } }] },
        { toolCalls: [{ name: "bash", input: { command: "true" } }] },
        { text: "done" },
      );
      const run = await runShiro(["-p", "build in the background", "--yolo", ...flags], { baseURL: s.url });
      expect(run.code).toBe(0);
      expect(toolOutputsIn(s.requests[1]!.body).join("")).toContain("Running in the background as job 1.");
      const ended = "[shiro: background job 1 (sleep 1.5; echo built; exit 3) has ended: exited 3.]";
      // Each request carries every result so far: the newest is the last.
      expect(toolOutputsIn(s.requests[2]!.body).at(-1)).toContain(ended);
      expect(toolOutputsIn(s.requests[3]!.body).at(-1)).toBe("Exit code 0\n(no output)");
      // It ended by itself: the end of the run has nothing to stop.
      expect(run.stderr).not.toContain("background job with every process");
    });
  });
}
