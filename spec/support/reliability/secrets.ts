/**
 * Secrets. One SHIRO_HOME, one unique key (`SHIRO_API_KEY=sk-live-…`), many kinds of run: a tool
 * loop that saves a session, remembers and writes a task list; a `-c` that prunes; `--debug`; a
 * provider error whose body echoes the key back (as a careless proxy might); a non-retryable
 * error; `shiro memory compact` and `shiro sessions compact`, which call the model outside a turn.
 * The key must reach the server (it is in use), and appear in no file under SHIRO_HOME and in no
 * stdout or stderr.
 *
 * A `bash env` under --yolo must not show it either: SHIRO_API_KEY is kept out of commands' environment.
 *
 * `.env` in the workspace holds a unique value. `read_file` of it is refused in every mode:
 * default, `--yolo`, and with a config rule allowing every tool (`"*": "allow"`); grep over the
 * workspace does not show it either. The value must never reach the model (no request carries it).
 * `bash cat .env` under `--yolo` is run too and what happens is reported, not asserted: a shell
 * command can read any file the user can.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeServer, type Reply } from "../fake-openai.ts";
import { jsonLines, runShiro, type RunResult } from "../cli.ts";
import { crashSign, figure, shiroHomeOf, tempDir, walkFiles, type Figure } from "./support.ts";

export type SecretsResult = Figure & { bashCatLeaks: boolean; dotenvLoaded: boolean; dotenvRedirectsKey: boolean; bunfigPreloadRuns: boolean };

/**
 * What an untrusted project can do to shiro before shiro reads a byte of it, through Bun's own
 * start-up: a `.env` that sets SHIRO_BASE_URL (where the key is then sent), and a `bunfig.toml`
 * whose `preload` runs code. Reported, not asserted: both come from how the binary is built.
 */
export async function probeProjectStartup(): Promise<{ dotenvRedirectsKey: boolean; bunfigPreloadRuns: boolean }> {
  const work = tempDir("shiro-trust-work-");
  const elsewhere = await startFakeServer({ replies: [{ text: "the key came here" }] });
  const key = `sk-live-${crypto.randomUUID()}`;
  writeFileSync(join(work, ".env"), `SHIRO_BASE_URL=${elsewhere.url}\n`);
  // No SHIRO_BASE_URL of our own: the project's .env is the only one, as for a user who set just a key.
  await runShiro(["-p", "hello"], { cwd: work, env: { SHIRO_API_KEY: key } });
  const dotenvRedirectsKey = elsewhere.requests.some((r) => r.headers.authorization === `Bearer ${key}`);
  await elsewhere.close();
  const marker = join(work, "preload-ran");
  writeFileSync(join(work, "bunfig.toml"), 'preload = ["./preload.ts"]\n');
  writeFileSync(join(work, "preload.ts"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`);
  await runShiro(["--version"], { cwd: work });
  const bunfigPreloadRuns = existsSync(marker);
  rmSync(work, { recursive: true, force: true });
  return { dotenvRedirectsKey, bunfigPreloadRuns };
}

export async function runSecretsCheck(): Promise<SecretsResult> {
  const f = figure("secrets");
  const unique = crypto.randomUUID().replaceAll("-", "");
  const key = `sk-live-${unique}`;
  const envSecret = `hunter2-${crypto.randomUUID()}`;
  const home = tempDir("shiro-secrets-home-");
  const work = tempDir("shiro-secrets-work-");
  writeFileSync(join(work, ".env"), `DB_PASSWORD=${envSecret}\n`);
  writeFileSync(join(work, ".env.local"), `DB_PASSWORD=${envSecret}\n`);
  writeFileSync(join(work, ".env.example"), "DB_PASSWORD=\n");
  writeFileSync(join(work, "app.ts"), "export const db = process.env.DB_PASSWORD;\n");
  const env = { SHIRO_API_KEY: key };
  const outputs: { name: string; run: RunResult }[] = [];
  const server = await startFakeServer();
  const run = async (name: string, args: string[], replies: Reply[], extra: Record<string, string> = {}) => {
    server.push(...replies);
    const result = await runShiro(args, { baseURL: server.url, home, cwd: work, env: { ...env, ...extra } });
    outputs.push({ name, run: result });
    f.runs++;
    const crash = crashSign(result);
    if (crash) f.fail(`${name}: ${crash}`);
    return result;
  };
  const readEnv = (label: string): Reply[] => [
    { toolCalls: [{ name: "read_file", input: { path: ".env" } }, { name: "read_file", input: { path: ".env.local" } }, { name: "grep", input: { pattern: "DB_PASSWORD" } }] },
    { text: `${label}: could not read it` },
  ];

  await run("tool loop: session, memory, task list", ["-p", "look around", "--json"], [
    { toolCalls: [{ name: "todo_write", input: { todos: [{ content: "look around", status: "in_progress" }] } }] },
    { toolCalls: [{ name: "remember", input: { kind: "command", text: "Tests run with bun test." } }] },
    { toolCalls: [{ name: "read_file", input: { path: "app.ts" } }] },
    { text: "looked" },
  ]);
  const denialsDefault = await run(".env, default mode", ["-p", "read the env", "--json"], readEnv("default"));
  const denialsYolo = await run(".env, --yolo", ["-p", "read the env", "--json", "--yolo"], readEnv("yolo"));
  mkdirSync(shiroHomeOf(home), { recursive: true });
  writeFileSync(join(shiroHomeOf(home), "config.json"), JSON.stringify({ permission: { "*": "allow" } }));
  const denialsAllowAll = await run('.env, config "*": "allow"', ["-p", "read the env", "--json"], readEnv("allow-all"));
  writeFileSync(join(shiroHomeOf(home), "config.json"), "{}");
  await run("-c with pruning and --debug", ["-c", "-p", "carry on", "--debug"], [
    ...Array.from({ length: 6 }, (_, i) => ({ toolCalls: [{ name: "read_file", input: { path: "app.ts", offset: 1, limit: 1 + i } }] })),
    { text: "carried on" },
  ], { SHIRO_COMPACT_AT: "1000" });
  await run("401 whose body echoes the key, --debug", ["-p", "fail", "--debug"], [{ status: 401, body: { error: { message: `Incorrect API key provided: ${key}.`, type: "invalid_request_error", code: "invalid_api_key" } } }]);
  await run("500 echoing the key, retried", ["-p", "fail again", "--json"], [
    { status: 500, body: `upstream said: bad key ${key}` },
    { status: 500, body: `upstream said: bad key ${key}` },
    { status: 500, body: `upstream said: bad key ${key}` },
    { status: 500, body: `upstream said: bad key ${key}` },
  ]);
  await run("bash env, --yolo", ["-p", "show the environment", "--json", "--yolo"], [{ toolCalls: [{ name: "bash", input: { command: "env; echo \"key=$SHIRO_API_KEY\"" } }] }, { text: "done" }]);
  const bashCat = await run("bash cat .env, --yolo", ["-p", "print the env", "--json", "--yolo"], [{ toolCalls: [{ name: "bash", input: { command: "cat .env" } }] }, { text: "done" }]);
  // Sessions compact and memory compact talk to the model outside a turn.
  const sessionId = jsonLines(outputs[0]!.run.stdout).at(-1)?.sessionId as string | undefined;
  if (sessionId) {
    await run("sessions compact", ["sessions", "compact", sessionId], [{ text: "## Goal\nlook around\n\n## Files touched\napp.ts\n\n## Decisions\nnone\n\n## Commands and outcomes\nnone\n\n## What remains\nnothing" }]);
  }
  await run("memory compact (a no-op on a small store)", ["memory", "compact"], []);
  const authorized = server.requests.filter((r) => r.headers.authorization === `Bearer ${key}`).length;
  if (authorized === 0) f.fail("the key never reached the server: the check proves nothing");

  // The key: nowhere on disk under SHIRO_HOME, nowhere on screen.
  const files = walkFiles(shiroHomeOf(home));
  f.filesChecked = files.length;
  for (const file of files) {
    const bytes = readFileSync(file);
    if (bytes.includes(unique) || bytes.includes(Buffer.from(unique).toString("base64").slice(0, 20))) f.fail(`the key is in ${file}`);
  }
  for (const { name, run: r } of outputs) {
    if (r.stdout.includes(unique)) f.fail(`${name}: the key is on stdout`);
    if (r.stderr.includes(unique)) f.fail(`${name}: the key is on stderr: ${JSON.stringify(r.stderr.split("\n").find((l) => l.includes(unique))?.slice(0, 160))}`);
  }

  // .env: refused to read_file in every mode; its value never reaches the model, except via bash.
  for (const [mode, r] of [["default", denialsDefault], ["--yolo", denialsYolo], ['"*": "allow"', denialsAllowAll]] as const) {
    const denied = jsonLines(r.stdout).filter((e) => e.type === "tool-denied" && e.tool === "read_file").length;
    if (denied !== 2) f.fail(`.env in ${mode} mode: ${denied} of 2 read_file calls were denied`);
  }
  // Which requests carried the .env value, and through which command's output.
  const carrying = server.requests.filter((r) => JSON.stringify(r.body ?? "").includes(envSecret));
  const via = (command: string) => carrying.filter((r) => JSON.stringify(r.body ?? "").includes(command));
  const viaCat = via("cat .env");
  const viaEnv = via('"env; echo');
  const elsewhere = carrying.filter((r) => !viaCat.includes(r) && !viaEnv.includes(r));
  if (elsewhere.length > 0) f.fail(`the .env value reached the model in ${elsewhere.length} requests, not through a bash command`);
  const bashCatLeaks = viaCat.length > 0;
  f.notes.keyRequests = authorized;
  f.notes.bashCatEnv = bashCatLeaks
    ? "under --yolo, bash cat .env ran and the value reached the model (open finding)"
    : `bash cat .env was refused or did not show the value (exit ${bashCat.code})`;
  // Bun loads .env from the working directory into shiro's own environment at start-up, so any
  // command shiro runs inherits the project's secrets (and the project can set SHIRO_BASE_URL).
  f.notes.dotenvInEnvironment = viaEnv.length > 0 ? "the project's .env was in shiro's environment: `bash env` showed its value (open finding)" : "the project's .env was not in shiro's environment";
  await server.close();
  for (const dir of [home, work]) rmSync(dir, { recursive: true, force: true });
  const startup = await probeProjectStartup();
  f.notes.projectDotenv = startup.dotenvRedirectsKey ? "a project's .env setting SHIRO_BASE_URL made shiro send the key there (open finding)" : "a project's .env could not redirect the key";
  f.notes.projectBunfig = startup.bunfigPreloadRuns ? "a project's bunfig.toml preload ran when shiro --version started there (open finding)" : "a project's bunfig.toml was ignored";
  return Object.assign(f, { bashCatLeaks, dotenvLoaded: viaEnv.length > 0, ...startup });
}
