// The GitHub Action (action.yml) run the way a runner runs a composite action: each step's `run`
// script by `bash --noprofile --norc -eo pipefail`, its `${{ inputs.* }}` filled in, with
// GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP and GITHUB_ACTION_PATH set. The install step
// installs this machine's build from a release served on 127.0.0.1; the run step drives it
// against the strict fake server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { shiroEnv } from "../support/cli.ts";
import { REPO_ROOT } from "../support/shared-fixtures.ts";
import { makeTempDir } from "../support/temp-dirs.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { hostRelease, bigTempDir, releaseUnavailable, removeBigDirsAfterAll, reportSkip, serveFolder } from "./support.ts";

const unavailable = await releaseUnavailable();
reportSkip("spec/release/action.test.ts", unavailable);
removeBigDirsAfterAll();

type Step = { id: string; shell: string; env?: Record<string, string>; run: string };
type ActionYml = { inputs: Record<string, { default?: string; required?: boolean }>; outputs: Record<string, { value: string }>; runs: { using: string; steps: Step[] } };
const action = Bun.YAML.parse(readFileSync(join(REPO_ROOT, "action.yml"), "utf8")) as ActionYml;

/** The outputs as the runner reads GITHUB_OUTPUT: `name=value` lines and `name<<DELIM` … `DELIM` blocks. */
function readOutputs(file: string): Record<string, string> {
  const lines = readFileSync(file, "utf8").split("\n");
  const out: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=]+?)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      if (end < 0) throw new Error(`GITHUB_OUTPUT: no end to ${heredoc[1]}'s value`);
      out[heredoc[1]!] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (line.includes("=")) out[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
  }
  return out;
}

type ActionRun = { code: number; log: string; outputs: Record<string, string>; summary: string; workspace: string };

describe.skipIf(unavailable !== undefined)("action.yml", () => {
  const serve = useFakeServer();
  let releases: { url: string; stop: () => void };
  beforeAll(async () => {
    releases = serveFolder(await hostRelease());
  }, 600_000);
  afterAll(() => releases?.stop());

  async function runAction(inputs: Record<string, string>): Promise<ActionRun> {
    const temp = bigTempDir("shiro-action-runner-temp-");
    const workspace = bigTempDir("shiro-action-workspace-");
    writeFileSync(join(workspace, "README.md"), "# a project\n");
    const files = { GITHUB_OUTPUT: join(temp, "output"), GITHUB_STEP_SUMMARY: join(temp, "summary"), GITHUB_PATH: join(temp, "path") };
    for (const file of Object.values(files)) writeFileSync(file, "");
    const given: Record<string, string> = { "install-base": releases.url };
    for (const [name, spec] of Object.entries(action.inputs)) given[name] = inputs[name] ?? (name === "install-base" ? releases.url : (spec.default ?? ""));
    const fill = (text: string) =>
      text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, expr: string) => {
        if (expr === "runner.temp") return temp;
        if (expr === "github.workspace") return workspace;
        if (expr.startsWith("inputs.")) return given[expr.slice(7)] ?? "";
        throw new Error(`action.yml uses \${{ ${expr} }}, which this runner does not fill`);
      });
    const runner = { ...shiroEnv(makeTempDir("shiro-action-home-"), undefined), RUNNER_TEMP: temp, GITHUB_WORKSPACE: workspace, GITHUB_ACTION_PATH: REPO_ROOT, ...files };
    let log = "";
    for (const step of action.runs.steps) {
      const script = join(temp, `step-${step.id}.sh`);
      writeFileSync(script, fill(step.run));
      const env = { ...runner, ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, fill(String(v))])) };
      const child = Bun.spawn(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], { cwd: workspace, env, stdout: "pipe", stderr: "pipe" });
      const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
      log += `## ${step.id}\n${out}${err}`;
      if (code !== 0) return { code, log, outputs: readOutputs(files.GITHUB_OUTPUT), summary: readFileSync(files.GITHUB_STEP_SUMMARY, "utf8"), workspace };
    }
    return { code: 0, log, outputs: readOutputs(files.GITHUB_OUTPUT), summary: readFileSync(files.GITHUB_STEP_SUMMARY, "utf8"), workspace };
  }

  test("a run's status, exit code, cost, session id and final text are the step's outputs; text that looks like a delimiter stays inside its value", async () => {
    const sly = "All good.\nghadelimiter_0123\nstatus<<EOF\nhacked\nEOF\nstatus=hacked";
    const s = await serve({ text: sly, usage: { input: 1000, output: 100 } });
    const run = await runAction({ prompt: "check the readme", "api-key": "sk-action-test-key", model: "gpt-5", "base-url": s.url });
    expect(run.code).toBe(0);
    expect(Object.keys(run.outputs).sort()).toEqual(["cost", "exit-code", "session-id", "status", "text"]);
    expect(run.outputs.status).toBe("success");
    expect(run.outputs["exit-code"]).toBe("0");
    expect(run.outputs.text).toBe(sly);
    expect(run.outputs["session-id"]).toMatch(/^[0-9a-f]{6,}/);
    expect(Number(run.outputs.cost)).toBeGreaterThan(0);
    // Every output the action declares is one the step writes.
    for (const spec of Object.values(action.outputs)) expect(Object.keys(run.outputs)).toContain(/steps\.run\.outputs\.([\w-]+)/.exec(spec.value)![1]!);
    expect(run.summary).toStartWith(`### shiro: success\n\n| status | exit code | steps | cost | session |\n| --- | --- | --- | --- | --- |\n| success | 0 | 1 | $`);
    expect(run.summary).toContain(`<details><summary>Final answer</summary>\n\n${sly}\n\n</details>`);
    // The key: masked before anything else is printed, and sent to the server as the bearer token.
    expect(run.log.split("## run\n")[1]!.split("\n")[0]).toBe("::add-mask::sk-action-test-key");
    expect(s.requests[0]!.headers.authorization).toBe("Bearer sk-action-test-key");
    expect(s.requests[0]!.body.model).toBe("gpt-5");
    expect(JSON.stringify(s.requests[0]!.body)).toContain("check the readme");
  }, 180_000);

  test("a failing run fails the step with one ::error:: line; fail-on-error false only warns and the outputs still say what happened", async () => {
    const failing = await serve({ status: 400, body: { error: { message: "model not found", type: "invalid_request_error" } } });
    serve.allowRejections("the test sends a 400 on purpose");
    const failed = await runAction({ prompt: "hi", "base-url": failing.url, "api-key": "k" });
    expect(failed.code).toBe(1);
    expect(failed.log).toMatch(/^::error::shiro exited 1 \(error\): .*model not found.*$/m);
    expect(failed.outputs.status).toBe("error");
    expect(failed.outputs["exit-code"]).toBe("1");
    expect(failed.summary).toStartWith("### shiro: error\n");

    const again = await serve({ status: 400, body: { error: { message: "model not found", type: "invalid_request_error" } } });
    const tolerated = await runAction({ prompt: "hi", "base-url": again.url, "api-key": "k", "fail-on-error": "false" });
    expect(tolerated.code).toBe(0);
    expect(tolerated.log).toMatch(/^::warning::shiro exited 1 \(error\): .*; the step goes on \(fail-on-error: false\)$/m);
    expect(tolerated.outputs.status).toBe("error");
  }, 180_000);

  test("yolo and the extra flags reach shiro: an edit is made in the workspace, a quoted flag value stays one word, and --max-steps 1 ends the run at the cap", async () => {
    const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "notes.txt", content: "written by the action\n" } }] });
    const run = await runAction({ prompt: "write a note", "base-url": s.url, "api-key": "k", yolo: "true", flags: `--max-steps 1 --no-memory --model 'my local model'`, "fail-on-error": "false" });
    expect(s.requests[0]!.body.model).toBe("my local model");
    expect(run.outputs.status).toBe("step-cap");
    expect(run.outputs["exit-code"]).toBe("3");
    expect(readFileSync(join(run.workspace, "notes.txt"), "utf8")).toBe("written by the action\n");
    expect(run.code).toBe(0);
  }, 180_000);

  test("without yolo the edit is denied and the run still succeeds", async () => {
    const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "notes.txt", content: "x" } }] }, { text: "I could not write it." });
    const run = await runAction({ prompt: "write a note", "base-url": s.url, "api-key": "k" });
    expect(run.outputs.status).toBe("success");
    expect(run.outputs.text).toBe("I could not write it.");
    expect(existsSync(join(run.workspace, "notes.txt"))).toBe(false);
  }, 180_000);

  test("an empty prompt: one ::error:: line, and shiro does not run", async () => {
    const run = await runAction({ prompt: "  " });
    expect(run.code).toBe(2);
    expect(run.log).toContain("::error::the prompt input is empty: give the action a prompt (with: prompt: …)\n");
  }, 120_000);
});
