// The API key never reaches disk or the screen; .env is refused to read_file and to bash commands
// that name it, in every mode; an untrusted project's bunfig.toml and .env do not reach the binary.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { toolOutputsIn } from "../support/requests.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { runSecretsCheck } from "../support/reliability/secrets.ts";
import { keyRedactor, REDACTED_KEY } from "../../lib/agent/redact-key.ts";

test("SHIRO_API_KEY is in no file under SHIRO_HOME and on no stdout/stderr; read_file of .env is refused in every mode", async () => {
  const f = await runSecretsCheck();
  expect(f.problems).toEqual([]);
  expect(f.notes.keyRequests).toBeGreaterThan(0);
}, 60_000);

test("the redactor replaces every copy of the key and leaves short or absent keys alone", () => {
  expect(keyRedactor("sk-live-abcdef123")("bad key sk-live-abcdef123, again sk-live-abcdef123.")).toBe(`bad key ${REDACTED_KEY}, again ${REDACTED_KEY}.`);
  expect(keyRedactor(undefined)("anything")).toBe("anything");
  expect(keyRedactor("test")("a test key")).toBe("a test key");
});

const serve = useFakeServer();

test("bash commands naming .env are refused in every mode, --yolo included; .env.example is fine", async () => {
  const work = tempDir();
  writeFileSync(join(work, ".env"), "SECRET=hunter2-value");
  writeFileSync(join(work, ".env.example"), "SECRET=");
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: "cat .env" } }] },
    { toolCalls: [{ name: "bash", input: { command: "grep SECRET < ./.env.local; source .env" } }] },
    { toolCalls: [{ name: "bash", input: { command: "cat .env.example" } }] },
    { text: "done" },
  );
  const run = await runShiro(["-p", "show secrets", "--yolo", "--json"], { baseURL: s.url, cwd: work });
  expect(JSON.stringify(s.requests).includes("hunter2-value")).toBe(false);
  expect(jsonLines(run.stdout).at(-1)!.denied.map((d: any) => d.subject)).toEqual(["cat .env", "grep SECRET < ./.env.local; source .env"]);
  expect(toolOutputsIn(s.requests[3]!.body).join("")).toContain("SECRET=");
});

// What a project can plant only matters for the shipped binary (`bun cmd/shiro.ts` run inside the
// project would read its bunfig.toml by design), so these run against SHIRO_BIN.
describe.skipIf(!process.env.SHIRO_BIN)("an untrusted project cannot change shiro", () => {
  test("its bunfig.toml preload does not run", async () => {
    const work = tempDir();
    writeFileSync(join(work, "bunfig.toml"), 'preload = ["./evil.ts"]\n');
    writeFileSync(join(work, "evil.ts"), 'console.log("PROJECT CODE RAN");\n');
    const run = await runShiro(["--version"], { cwd: work });
    expect(run.stdout + run.stderr).not.toContain("PROJECT CODE RAN");
  });

  test("its .env does not redirect shiro (or its key) elsewhere", async () => {
    const s = await serve({ text: "answered by the real server" });
    const work = tempDir();
    writeFileSync(join(work, ".env"), "SHIRO_BASE_URL=http://127.0.0.1:9/v1\nSHIRO_MODEL=planted\n");
    const run = await runShiro(["-p", "hi"], { baseURL: s.url, cwd: work });
    expect(run.stdout).toBe("answered by the real server\n");
    expect(s.requests[0]!.body.model).not.toBe("planted");
  });
});

test("no command has the key in its environment; a key a command prints from elsewhere is redacted before the model, the screen or the session see it", async () => {
  const key = "sk-live-printed-by-a-command-0042";
  const home = tempDir();
  const work = tempDir();
  writeFileSync(join(work, "notes.txt"), `token=${key}\n`);
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: "echo env=$OPENAI_API_KEY; cat notes.txt" } }] }, { text: "done" });
  const run = await runShiro(["-p", "show env", "--yolo", "--json"], { baseURL: s.url, home, cwd: work, env: { OPENAI_API_KEY: key } });
  expect(toolOutputsIn(s.requests[1]!.body).join("")).toContain("env=\ntoken=[redacted API key]");
  expect(JSON.stringify(s.requests.map((r) => r.body)).includes(key)).toBe(false);
  expect(run.stdout.includes(key)).toBe(false);
  const files = new Bun.Glob("**/*").scanSync({ cwd: home, dot: true });
  for (const file of files) expect(require("node:fs").readFileSync(join(home, file), "utf8").includes(key)).toBe(false);
});
