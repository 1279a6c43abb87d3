// Without the sandbox, a command can look at shiro's own process: its environment as it started
// (/proc/$PPID/environ) must not hold the API key, in any encoding the redaction cannot see.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../support/cli.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { lastUserTextIn, toolOutputsIn } from "../support/requests.ts";

const serve = useFakeServer();
const KEY = "sk-proc-environ-secret-4242";

const decoded = (output: string) => Buffer.from(output.replace(/^Exit code \d+\n/, "").replace(/\s+/g, ""), "base64").toString("utf8");

for (const variable of ["SHIRO_API_KEY", "OPENAI_API_KEY"]) {
  test(`--no-sandbox --yolo: /proc/$PPID/environ, base64'd, has no key (from ${variable}), in what the model reads or the session file`, async () => {
    const home = tempDir("shiro-home-");
    const s = await serve(
      { toolCalls: [{ name: "bash", input: { command: "tr '\\0' '\\n' < /proc/$PPID/environ | base64 -w0" } }] },
      { toolCalls: [{ name: "bash", input: { command: "cat /proc/$PPID/cmdline /proc/$PPID/environ | base64 -w0" } }] },
      { text: "done" },
    );
    const run = await runShiro(["-p", "look at your parent", "--no-sandbox", "--yolo"], { baseURL: s.url, home, env: { [variable]: KEY, SHIRO_CLIENT: "openai" } });
    expect(run.code).toBe(0);
    // The key still reached the provider: shiro has it, only not in its environment block.
    expect(s.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    const outputs = toolOutputsIn(s.requests.at(-1)!.body);
    expect(outputs).toHaveLength(2);
    const environ = decoded(outputs[0]!);
    expect(environ).toContain(`HOME=${home}`); // the attack did read the environment
    expect(environ.includes(KEY)).toBe(false);
    expect(decoded(outputs[1]!).includes(KEY)).toBe(false);
    const sessions = join(home, ".shiro-neko", "sessions");
    const saved = readdirSync(sessions).filter((name) => name.endsWith(".json")).map((name) => readFileSync(join(sessions, name), "utf8")).join("");
    expect(saved.length).toBeGreaterThan(0);
    for (const text of [saved, JSON.stringify(s.requests.map((r) => r.body))]) {
      expect(text.includes(KEY)).toBe(false);
      expect(text.includes(Buffer.from(KEY).toString("base64").slice(0, 20))).toBe(false);
    }
  });
}

test("with the key in the environment, a prompt piped on stdin still arrives whole (the re-executed shiro reads the same stdin)", async () => {
  const s = await serve({ text: "done" });
  const run = await runShiro([], { baseURL: s.url, stdin: "piped prompt here", env: { OPENAI_API_KEY: KEY, SHIRO_CLIENT: "openai" } });
  expect(run.code).toBe(0);
  expect(lastUserTextIn(s.requests[0]!.body)).toBe("piped prompt here");
  expect(s.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
});
