// `shiro doctor` through the binary: the set-up checked line by line (the key and where it came
// from, whether the server answers, whether it offers the model, the window, ripgrep, the
// sandbox), each with a mark and what to do when it is not ok; exit 0 when nothing fails, even in
// a directory without sessions, and 1 when something does.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../support/cli.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

const serve = useFakeServer();

/** A server that lists two models, the way OpenAI's own API does (nothing about windows). */
const listing = () => serve.with({ vendor: "openai", models: { "gpt-5-mini": { contextWindow: 400_000 }, "gpt-4.1": { contextWindow: 1_000_000 } } })();

const lines = (stdout: string) => stdout.split("\n");

/**
 * PATH with an `rg` first on it, so that "ripgrep: ok" does not depend on whether this machine has
 * ripgrep: doctor only looks for the program on PATH, so a stand-in is what it finds.
 */
function pathWithRipgrep(): { PATH: string; rg: string } {
  const bin = join(tempDir("shiro-rg-"), "bin");
  mkdirSync(bin);
  const rg = join(bin, "rg");
  writeFileSync(rg, "#!/bin/sh\necho 'ripgrep 14.1.0'\n", { mode: 0o755 });
  return { PATH: `${bin}:${process.env.PATH}`, rg };
}
const marked = (stdout: string, mark: string) => lines(stdout).filter((l) => l.startsWith(mark + " "));

describe("shiro doctor on a good set-up", () => {
  test("every check ok, no session here: exit 0; the server asked once for its list", async () => {
    const s = await listing();
    const work = tempDir();
    const { PATH, rg } = pathWithRipgrep();
    const run = await runShiro(["doctor"], { baseURL: s.url, cwd: work, env: { PATH } });
    expect(run.stderr).toBe("");
    expect(marked(run.stdout, "fail")).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`ok    API key: none, and none needed for a server on this machine (${s.url})\n`);
    expect(run.stdout).toContain(`ok    server: ${s.url} answers (2 models listed)\n`);
    expect(run.stdout).toContain("ok    model gpt-5-mini: offered by the server\n");
    expect(run.stdout).toContain(`ok    ripgrep: ${rg}\n`);
    expect(run.stdout).toContain(`ok    context window: 1,000,000 tokens for gpt-5-mini at ${s.url} (`);
    expect(run.stdout).toMatch(/^(ok|warn) +sandbox: /m);
    expect(run.stdout).toContain(`no saved session for ${work} to check`);
    expect(s.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/models"]);
  });

  test("a key from the environment is named by its variable, never shown", async () => {
    const s = await listing();
    const run = await runShiro(["doctor"], { baseURL: s.url, env: { SHIRO_API_KEY: "sk-doctor-secret-42" } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("ok    API key: set (from SHIRO_API_KEY)\n");
    expect(run.stdout).not.toContain("sk-doctor-secret-42");
    expect(s.requests[0]!.headers.authorization).toBe("Bearer sk-doctor-secret-42");
  });
});

describe("shiro doctor on a broken set-up: the failing line says what to do, exit 1", () => {
  test("no key for a server that is not on this machine (and nothing is sent there)", async () => {
    const run = await runShiro(["doctor", "--base-url", "https://models.example.invalid/v1"]);
    expect(run.code).toBe(1);
    const at = lines(run.stdout).indexOf("fail  API key: none for https://models.example.invalid/v1");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines(run.stdout)[at + 1]).toBe("      → export OPENAI_API_KEY=… (or SHIRO_API_KEY), or shiro config set apiKey …, or point --base-url at a local server");
    expect(run.stdout).not.toContain("server:");
  });

  test("a local server nobody listens on is named with its URL", async () => {
    const run = await runShiro(["doctor"], { baseURL: "http://127.0.0.1:9/v1" });
    expect(run.code).toBe(1);
    const at = lines(run.stdout).indexOf("fail  server: could not connect to http://127.0.0.1:9/v1 (connection refused: is the server running?)");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines(run.stdout)[at + 1]).toStartWith("      → start the server, or point --base-url");
    expect(run.stdout).not.toContain("context window:"); // no window report for a server that is not there
  });

  test("a base URL without http:// is a failing settings line that gives the address to type; nothing is sent", async () => {
    const s = await serve();
    const bare = s.url.replace(/^http:\/\//, ""); // 127.0.0.1:<port>/v1, which a fetch might still guess at
    const run = await runShiro(["doctor", "--base-url", bare]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`fail  settings: base URL "${bare}" is not an http:// or https:// address. Pass --base-url ${s.url}.\n`);
    expect(run.stdout).not.toContain("server:");
    const prompt = await runShiro(["-p", "hi", "--base-url", `localhost:${new URL(s.url).port}/v1`]);
    expect(prompt.code).toBe(2);
    expect(prompt.stderr).toContain(`base URL "localhost:${new URL(s.url).port}/v1" is not an http:// or https:// address. Pass --base-url http://localhost:`);
    expect(s.requests).toEqual([]);
  });

  test("a base URL of another scheme is refused in words, not the fetch's (no s3:)", async () => {
    const run = await runShiro(["doctor", "--base-url", "ftp://127.0.0.1/v1"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('fail  settings: base URL "ftp://127.0.0.1/v1" is not an http:// or https:// address. Pass something like --base-url http://localhost:11434/v1.\n');
    expect(run.stdout).not.toContain("s3:");
  });

  test("a model the server does not offer: its look-alikes are suggested", async () => {
    const s = await listing();
    const run = await runShiro(["doctor", "-m", "gpt-5-mega"], { baseURL: s.url });
    expect(run.code).toBe(1);
    const at = lines(run.stdout).indexOf("fail  model gpt-5-mega: not in the server's list of 2");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines(run.stdout)[at + 1]).toBe("      → use one it offers (gpt-5-mini): -m <id>, or shiro config set model <id>; /model in a session lists them all");
    // The window of a model that is not there is for information only: never marked ok.
    expect(run.stdout).toContain(`\ninfo  context window: 1,000,000 tokens for gpt-5-mega at ${s.url} (`);
    expect(run.stdout).not.toMatch(/^ok +context window/m);
  });

  test("a provider with no default model and none chosen: the line lists the server's ids to choose from, not OpenAI's default", async () => {
    const s = await serve.with({ vendor: "openai", models: { "qwen3:8b": { contextWindow: 40_000 }, "llama3.2": { contextWindow: 8_000 } } })();
    // What a run refused with "ollama has no default model" tells the user to run.
    const run = await runShiro(["doctor", "--provider", "ollama"], { baseURL: s.url, env: { PATH: pathWithRipgrep().PATH } });
    expect(run.code).toBe(1);
    const at = lines(run.stdout).indexOf("fail  model: none chosen, and ollama has no default one");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines(run.stdout)[at + 1]).toBe("      → choose one it offers (qwen3:8b, llama3.2): -m <id>, SHIRO_MODEL, or shiro config set model <id>");
    expect(run.stdout).not.toContain("gpt-5-mini");
    // The window line would only repeat the refusal, and send the user back to doctor.
    expect(run.stdout).not.toContain("context window");
    expect(run.stdout).toMatch(/^ok {4}ripgrep: /m);
  });

  test("SHIRO_SANDBOX=off is a warning that names it, with how to undo it", async () => {
    const s = await listing();
    const run = await runShiro(["doctor"], { baseURL: s.url, env: { SHIRO_SANDBOX: "off" } });
    expect(run.code).toBe(0);
    const at = lines(run.stdout).indexOf("warn  sandbox: off (SHIRO_SANDBOX=off); commands run directly on this machine, protected only by the guard and approvals");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines(run.stdout)[at + 1]).toBe("      → unset SHIRO_SANDBOX");
  });

  test("ripgrep missing from PATH is a warning with the fix, not a failure", async () => {
    const s = await listing();
    const empty = tempDir();
    mkdirSync(join(empty, "bin"));
    const run = await runShiro(["doctor"], { baseURL: s.url, env: { PATH: join(empty, "bin") } });
    expect(marked(run.stdout, "fail")).toEqual([]);
    expect(run.code).toBe(0);
    const at = lines(run.stdout).indexOf("warn  ripgrep: not on PATH; the grep tool falls back to a slower built-in search");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines(run.stdout)[at + 1]).toStartWith("      → install ripgrep");
  });

  test("a broken config file is a failing line, and the other checks still run", async () => {
    const s = await listing();
    const home = tempDir();
    mkdirSync(join(home, ".shiro-neko"), { recursive: true });
    await Bun.write(join(home, ".shiro-neko", "config.json"), "{ nope");
    const run = await runShiro(["doctor"], { baseURL: s.url, home });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^fail {2}config file: \/\S+\/config\.json is not valid JSON/m);
    expect(run.stdout).toContain("ok    model gpt-5-mini: offered by the server");
  });

  test("every wrong field of the config file is a failing line of its own, not only the first", async () => {
    const s = await listing();
    const home = tempDir();
    mkdirSync(join(home, ".shiro-neko"), { recursive: true });
    await Bun.write(join(home, ".shiro-neko", "config.json"), JSON.stringify({ maxSteps: "many", sandbox: "sometimes" }));
    const run = await runShiro(["doctor"], { baseURL: s.url, home });
    expect(run.code).toBe(1);
    const failing = lines(run.stdout).filter((line) => line.startsWith("fail  config file:"));
    expect(failing).toHaveLength(2);
    expect(failing.join("\n")).toContain("maxSteps");
    expect(failing.join("\n")).toContain("sandbox");
  });
});

test("a damaged session file is named with a warning, not passed over for an older session said to be healthy", async () => {
  const s = await serve.with({ vendor: "openai", models: { "gpt-5-mini": { contextWindow: 400_000 } } })({ text: "first answer" }, { text: "second answer" });
  const home = tempDir();
  const work = tempDir();
  for (const prompt of ["first", "second"]) expect((await runShiro(["-p", prompt], { baseURL: s.url, cwd: work, home })).code).toBe(0);
  const dir = join(home, ".shiro-neko", "sessions");
  const files = readdirSync(dir).filter((name) => name.endsWith(".json")).sort();
  const damaged = join(dir, files.at(-1)!); // ids sort by age: the newer one
  writeFileSync(damaged, "garbage\n");

  const run = await runShiro(["doctor"], { baseURL: s.url, cwd: work, home });
  expect(run.code).toBe(0); // a warning: the other sessions work
  expect(run.stdout).toContain(`warn  sessions: skipped ${damaged}: not valid JSON at line 1, column 1`);
  expect(run.stdout).toContain("Fix or delete that file; other sessions are unaffected.\n");
  expect(run.stdout).toMatch(/^Session [0-9a-f-]+ is healthy/m); // the older one, still checked
  expect(readFileSync(damaged, "utf8")).toBe("garbage\n");
});
