// What a script or CI job running `shiro -p` can rely on when a run does not simply succeed:
// the result record's `error` line, the exit code, and the lines on stderr.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, runShiro, shiroCommand, shiroEnv, tempDir } from "../support/cli.ts";
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

describe("--json when the run cannot start", () => {
  const brokenConfig = () => {
    const home = tempDir();
    mkdirSync(join(home, ".shiro-neko"), { recursive: true });
    writeFileSync(join(home, ".shiro-neko", "config.json"), "{bad");
    return home;
  };
  const cases: { name: string; args: string[]; home?: () => string; error: RegExp }[] = [
    { name: "an empty prompt", args: ["-p", "", "--json"], error: /^no prompt: / },
    { name: "a step cap that is no number", args: ["-p", "hi", "--json", "--max-steps", "abc"], error: /^--max-steps must be a whole number/ },
    { name: "an unknown flag", args: ["-p", "--json", "hi", "--frobnicate"], error: /^unknown option --frobnicate/ },
    { name: "a config file that is not JSON", args: ["-p", "hi", "--json"], home: brokenConfig, error: /config\.json is not valid JSON/ },
  ];
  for (const c of cases) {
    test(`${c.name}: stdout still ends with the result record, exit 2, its error the stderr line`, async () => {
      const run = await runShiro(c.args, { baseURL: "http://127.0.0.1:9/v1", ...(c.home ? { home: c.home() } : {}) });
      expect(run.code).toBe(2);
      const lines = jsonLines(run.stdout);
      expect(lines).toHaveLength(1);
      const result = lines[0]!;
      expect(result).toEqual({
        type: "result",
        status: "error",
        exitCode: 2,
        steps: 0,
        usage: { inputTokens: 0, outputTokens: 0 },
        costUsd: null,
        error: expect.stringMatching(c.error),
        truncated: false,
        changes: null,
        sessionId: null,
        text: "",
        denied: [],
        todos: [],
        subagents: { count: 0, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0 },
        goal: null,
      });
      expect(run.stderr).toBe(`shiro: ${result.error}\n`);
    });
  }

  test("without --json (or with it after --, as prompt words) stdout stays empty", async () => {
    for (const args of [["-p", "", "--max-steps", "abc"], ["-p", "hi", "--max-steps", "abc", "--", "--json"]]) {
      const run = await runShiro(args);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
    }
  });
});

for (const { wire, flags } of WIRES) {
  describe(`short flags written with = over ${wire}`, () => {
    test("-m=foo -p=hi sends the model foo and the prompt hi, as --model=foo --prompt=hi would", async () => {
      const s = await serve({ text: "ok" });
      const run = await runShiro(["-m=foo", "-p=hi there", ...flags], { baseURL: s.url });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("ok\n");
      expect(s.requests[0]!.body.model).toBe("foo");
      expect(JSON.stringify(s.requests[0]!.body)).toContain("hi there");
      expect(JSON.stringify(s.requests[0]!.body)).not.toContain("=hi there");
    });
  });
}

describe("flags a script gets wrong", () => {
  test("a letter that is no flag, written with =, is an unknown option", async () => {
    const run = await runShiro(["-z=1", "-p", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("shiro: unknown option -z. Run shiro --help for the list.\n");
  });

  test("-r with a word that is no session id says that word is not one, not that no id was given", async () => {
    const run = await runShiro(["-r", "bogus", "-p", "hi"], { baseURL: "http://127.0.0.1:9/v1" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('-r needs a session id here ("bogus" is not one: ids are hex digits, as shiro sessions prints them)');
  });
});
