import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { bashTool } from "../../lib/tools/bash.ts";
import type { ToolContext } from "../../lib/tools/define.ts";
import { HeadTailBuffer } from "../../lib/text/head-tail.ts";
import { errorOf, makeWorkspace, runTool, type Workspace } from "./fixture.ts";

let ws: Workspace;
beforeEach(() => (ws = makeWorkspace()));
afterEach(() => ws.cleanup());

const bash = (input: unknown, ctx: ToolContext = ws.ctx) => runTool(bashTool, input, ctx);

/** True while `pid` is a live process (a zombie waiting to be reaped counts as gone). */
/** Signals are delivered asynchronously: give a killed process a moment (bounded) to go. */
async function diesSoon(pid: number, withinMs = 2_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await Bun.sleep(20);
  }
  return true;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, "utf8") : "";
  return !/^\d+ \(.*\) Z/.test(stat);
}

/** The pid a command wrote to `file` in the workspace. */
const pidIn = (file: string) => Number(readFileSync(ws.path(file), "utf8").trim());

// A child in the background and a shell waiting on it: the tree that must die as a whole.
// "started" is printed once the child's pid is on disk.
const TREE = "sleep 30 & echo $! > child.pid; echo started; wait";

describe("bash", () => {
  test("returns the exit code and the output", async () => {
    expect(await bash({ command: "echo hello" })).toEqual({ output: "Exit code 0\nhello\n", summary: "exit 0", exitCode: 0 });
    expect(await bash({ command: "true" })).toEqual({ output: "Exit code 0\n(no output)", summary: "exit 0", exitCode: 0 });
  });

  test("a progress bar redrawn with carriage returns reaches the model as the line a terminal would show", async () => {
    // 300 redraws of a bar, as curl or tqdm print them into a pipe, then the result; and a Windows line end.
    const command = `for i in $(seq 1 300); do printf '\\r[%-30s] %3d%%' "$(printf '#%.0s' $(seq 1 $((i / 10))))" $((i / 3)); done; printf '\\ndone\\r\\n'`;
    const result = await bash({ command });
    expect(result.output).toBe("Exit code 0\n[##############################] 100%\ndone\n");
    // A screen-only trick never hides text: a shorter redraw leaves the end of the longer line, as on a terminal.
    expect((await bash({ command: "printf 'abcdef\\rXY\\n'" })).output).toBe("Exit code 0\nXYcdef\n");
  });

  test("a failing command reports its exit code with stdout and stderr combined", async () => {
    const result = await bash({ command: "echo out; echo err >&2; exit 3" });
    expect(result.summary).toBe("exit 3");
    expect(result.output).toStartWith("Exit code 3\n");
    expect(result.output).toContain("out\n");
    expect(result.output).toContain("err\n");
  });

  test("runs in ctx.cwd", async () => {
    mkdirSync(ws.path("pkg"));
    const result = await bash({ command: "pwd" }, { ...ws.ctx, cwd: ws.path("pkg") });
    expect(result.output).toBe(`Exit code 0\n${ws.path("pkg")}\n`);
  });

  test("streams chunks through onOutput before the command ends", async () => {
    const chunks: Array<{ stream: string; chunk: string; at: number }> = [];
    const ctx = { ...ws.ctx, onOutput: (stream: string, chunk: string) => chunks.push({ stream, chunk, at: Date.now() }) };
    const result = await bash({ command: "echo first; echo oops >&2; sleep 0.4; echo second" }, ctx);
    const finishedAt = Date.now();
    const first = chunks.find((c) => c.chunk.includes("first"));
    expect(first?.stream).toBe("stdout");
    expect(finishedAt - first!.at).toBeGreaterThanOrEqual(300);
    expect(chunks.find((c) => c.chunk.includes("oops"))?.stream).toBe("stderr");
    expect(chunks.map((c) => c.chunk).join("")).toContain("second");
    expect(result.summary).toBe("exit 0");
  });

  test("a timeout kills the whole process tree and says the effects are unknown", async () => {
    const started = Date.now();
    // Long enough for the login shell to start even on a loaded machine.
    const result = await bash({ command: TREE, timeout: 800 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.summary).toBe("timed out after 0.8s");
    expect(result.output).toStartWith("Command timed out after 0.8s; it was killed with every process it started. Its effects are unknown");
    expect(result.output).toContain("started");
    expect(await diesSoon(pidIn("child.pid"))).toBe(true);
  });

  test("aborting the signal kills the tree, even processes that ignore SIGTERM", async () => {
    const controller = new AbortController();
    const onOutput = (_stream: string, chunk: string) => chunk.includes("started") && controller.abort();
    const ctx = { ...ws.ctx, signal: controller.signal, onOutput };
    const result = await bash({ command: `trap '' TERM; ${TREE}` }, ctx);
    expect(result.summary).toBe("interrupted");
    expect(result.output).toStartWith("Interrupted by the user; the command was killed with every process it started. Its effects are unknown");
    expect(await diesSoon(pidIn("child.pid"))).toBe(true);
  });

  test("an already aborted turn runs nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    const message = await errorOf(bash({ command: "touch ran" }, { ...ws.ctx, signal: controller.signal }));
    expect(message).toContain("not run");
    expect(existsSync(ws.path("ran"))).toBe(false);
  });

  test("a timeout above the maximum is clamped, and says so", async () => {
    const result = await bash({ command: "echo hi", timeout: 900_000 });
    expect(result.output).toBe("Exit code 0\n(timeout 900000ms is above the 600000ms maximum; used 600000ms)\nhi\n");
  });

  test("huge output keeps its beginning and its end, under runTool's cut", async () => {
    const result = await bash({ command: "seq 1 200000" });
    expect(result.output).toStartWith("Exit code 0\n1\n2\n3\n");
    expect(result.output).toEndWith("199999\n200000\n");
    expect(result.output).toMatch(/\[\.\.\. \d+ characters omitted from the middle of the output \.\.\.\]/);
    expect(result.output).not.toContain("[output truncated");
  });

  test("a background process holding the output open does not hang the call", async () => {
    const started = Date.now();
    const result = await bash({ command: "sleep 20 & echo $! > bg.pid; echo done" });
    process.kill(pidIn("bg.pid"), "SIGKILL");
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result.output).toBe("Exit code 0\ndone\n");
  });

  test("invalid arguments, and the command as subject", async () => {
    expect(await errorOf(bash({}))).toStartWith("bash: invalid arguments (command:");
    expect(await errorOf(bash({ command: "ls", timeout: 0 }))).toStartWith("bash: invalid arguments (timeout:");
    expect(bashTool.subject).toMatchObject({ kind: "command" });
    expect(bashTool.subject.of({ command: "git status" })).toBe("git status");
  });
});

describe("HeadTailBuffer", () => {
  test("keeps everything while it fits", () => {
    const buffer = new HeadTailBuffer(5, 5);
    for (const chunk of ["ab", "cd", "ef"]) buffer.push(chunk);
    expect(buffer.text()).toBe("abcdef");
  });

  test("drops the middle, counting what it dropped", () => {
    const buffer = new HeadTailBuffer(3, 3);
    for (const chunk of "0123456789".split("")) buffer.push(chunk);
    expect(buffer.text()).toBe("012\n\n[... 4 characters omitted from the middle of the output ...]\n\n789");
  });
});
