// What a script or CI job running `shiro -p` can rely on when a run does not simply succeed:
// the result record's `error` line, the exit code, and the lines on stderr.
import { describe, expect, test } from "bun:test";
import { jsonLines, shiroCommand, shiroEnv, tempDir } from "../support/cli.ts";
import { WIRES } from "../support/requests.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

const serve = useFakeServer();

/** Starts shiro, waits until `seen` is on its stdout, sends `signal`, and returns what it printed. */
async function signalMidAnswer(args: string[], baseURL: string, seen: string, signal: NodeJS.Signals) {
  const child = Bun.spawn([...shiroCommand(), ...args], { cwd: tempDir(), env: shiroEnv(tempDir(), baseURL), stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const reader = child.stdout.getReader();
  let stdout = "";
  while (!stdout.includes(seen)) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += new TextDecoder().decode(value);
  }
  child.kill(signal);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += new TextDecoder().decode(value);
  }
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

for (const { wire, flags } of WIRES) {
  describe(`a signal during a headless run over ${wire}`, () => {
    test("--json: the result record's error says which signal stopped it and how to go on", async () => {
      const s = await serve({ text: "Half of an answ", fault: "hang" });
      const run = await signalMidAnswer(["-p", "explain it", "--json", ...flags], s.url, "answ", "SIGTERM");
      expect(run.code).toBe(130);
      const result = jsonLines(run.stdout).at(-1)!;
      expect(result).toMatchObject({ type: "result", status: "interrupted", exitCode: 130, text: "Half of an answ" });
      expect(result.error).toBe('interrupted by SIGTERM; the turn so far is saved: continue with shiro -c -p "go on"');
      expect(typeof result.sessionId).toBe("string");
    });

    test("text mode: the partial answer on stdout, one line on stderr saying what stopped it", async () => {
      const s = await serve({ text: "Half of an answ", fault: "hang" });
      const run = await signalMidAnswer(["-p", "explain it", ...flags], s.url, "answ", "SIGINT");
      expect(run.code).toBe(130);
      expect(run.stdout).toBe("Half of an answ\n");
      expect(run.stderr).toContain('interrupted by SIGINT; the turn so far is saved: continue with shiro -c -p "go on"\n');
      expect(run.stderr).not.toContain("    at ");
    });
  });
}
