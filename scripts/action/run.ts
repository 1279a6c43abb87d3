/**
 * The GitHub Action's entry (action.yml, docs/ci.md): runs `shiro -p … --json` with the step's
 * inputs (INPUT_* variables, as action.yml names them), then gives the result record's status,
 * exit code, cost, session id and final text as the step's outputs and a short summary for the job
 * page. It runs on the Bun inside the installed shiro (`BUN_BE_BUN=1 shiro run.ts`), so it needs
 * nothing else on the runner, and imports only Node's modules.
 *
 * The key arrives as INPUT_API_KEY: it is masked in the log first, given to shiro as
 * SHIRO_API_KEY, and kept out of the rest of shiro's environment. Outputs are written with a fresh
 * random delimiter (`name<<delimiter`), so text from the model cannot end a value early and
 * write an output of its own.
 */
import { randomBytes } from "node:crypto";
import { appendFileSync } from "node:fs";
import { resolve } from "node:path";

type Env = Record<string, string | undefined>;

/** The outcome the step reports: the result record's fields, or what is known when there is none. */
export type Outcome = { status: string; exitCode: number; costUsd: number | null; sessionId: string | null; text: string; error: string | null; steps: number };

/** The words of the `flags` input: split at spaces; '…' and "…" keep spaces inside a word. */
export function splitFlags(input: string): string[] {
  const words: string[] = [];
  const re = /"((?:\\.|[^"\\])*)"|'([^']*)'|([^\s"']+)/g;
  let word: string | undefined;
  let lastEnd = -1;
  for (const m of input.matchAll(re)) {
    const part = m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? m[3]!);
    if (word !== undefined && m.index === lastEnd) word += part; // --x="a b" is one word
    else {
      if (word !== undefined) words.push(word);
      word = part;
    }
    lastEnd = m.index + m[0].length;
  }
  if (word !== undefined) words.push(word);
  return words;
}

const isTrue = (value: string | undefined) => /^(true|yes|1|on)$/i.test((value ?? "").trim());

/** shiro's arguments for the inputs. The prompt comes after `--`, so no prompt is read as a flag. */
export function shiroArgs(env: Env): string[] {
  const args = ["--json"];
  const add = (flag: string, value: string | undefined) => {
    if (value?.trim()) args.push(flag, value.trim());
  };
  add("--model", env.INPUT_MODEL);
  add("--base-url", env.INPUT_BASE_URL);
  add("--agent", env.INPUT_AGENT);
  add("--max-spend", env.INPUT_MAX_SPEND);
  if (isTrue(env.INPUT_YOLO)) args.push("--yolo");
  args.push(...splitFlags(env.INPUT_FLAGS ?? ""));
  args.push("-p", "--", env.INPUT_PROMPT ?? "");
  return args;
}

/** shiro's environment: the runner's, with the key as SHIRO_API_KEY and no INPUT_* or BUN_BE_BUN. */
export function shiroEnv(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || key.startsWith("INPUT_") || key === "BUN_BE_BUN") continue;
    out[key] = value;
  }
  if (env.INPUT_API_KEY?.trim()) out.SHIRO_API_KEY = env.INPUT_API_KEY.trim();
  return out;
}

/** The result record: the last line of shiro's stdout that is one; an error outcome when there is none. */
export function readOutcome(stdout: string, exitCode: number): Outcome {
  for (const line of stdout.trimEnd().split("\n").reverse()) {
    try {
      const r = JSON.parse(line) as Record<string, unknown>;
      if (r.type !== "result") continue;
      return {
        status: String(r.status),
        exitCode: typeof r.exitCode === "number" ? r.exitCode : exitCode,
        costUsd: typeof r.costUsd === "number" ? r.costUsd : null,
        sessionId: typeof r.sessionId === "string" ? r.sessionId : null,
        text: typeof r.text === "string" ? r.text : "",
        error: typeof r.error === "string" ? r.error : null,
        steps: typeof r.steps === "number" ? r.steps : 0,
      };
    } catch {
      // not JSON: keep looking
    }
  }
  return { status: "error", exitCode, costUsd: null, sessionId: null, text: "", error: `shiro exited ${exitCode} without a result record (see the log above)`, steps: 0 };
}

/** `name<<delimiter\nvalue\ndelimiter\n`, with a delimiter that is in neither the name nor the value. */
export function outputBlock(name: string, value: string): string {
  let delimiter: string;
  do delimiter = `ghadelimiter_${randomBytes(16).toString("hex")}`;
  while (value.includes(delimiter) || name.includes(delimiter));
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

/** The job summary: a heading with the status, a table of the figures, the final answer folded. */
export function summary(o: Outcome): string {
  const cost = o.costUsd === null ? "unknown" : `$${o.costUsd.toFixed(4)}`;
  const lines = [
    `### shiro: ${o.status}`,
    "",
    "| status | exit code | steps | cost | session |",
    "| --- | --- | --- | --- | --- |",
    `| ${o.status} | ${o.exitCode} | ${o.steps} | ${cost} | ${o.sessionId ? `\`${o.sessionId}\`` : "none"} |`,
    "",
  ];
  if (o.error) lines.push(`**Error:** ${o.error.replace(/\s+/g, " ")}`, "");
  if (o.text) {
    const clipped = o.text.length > 4000 ? `${o.text.slice(0, 4000)}\n\n… (${o.text.length - 4000} more characters in the \`text\` output)` : o.text;
    lines.push("<details><summary>Final answer</summary>", "", clipped, "", "</details>", "");
  }
  return lines.join("\n");
}

/** A workflow command's message: `%`, CR and LF escaped as the runner reads them. */
const escapeData = (text: string) => text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");

async function main(env: Env): Promise<number> {
  const key = env.INPUT_API_KEY?.trim();
  if (key) process.stdout.write(`::add-mask::${escapeData(key)}\n`);
  if (!env.INPUT_PROMPT?.trim()) {
    process.stdout.write("::error::the prompt input is empty: give the action a prompt (with: prompt: …)\n");
    return 2;
  }
  const bin = env.SHIRO_ACTION_BIN || "shiro";
  const child = Bun.spawn([bin, ...shiroArgs(env)], { env: shiroEnv(env), cwd: resolve(env.GITHUB_WORKSPACE || process.cwd(), env.INPUT_WORKING_DIRECTORY || "."), stdin: "ignore", stdout: "pipe", stderr: "inherit" });
  const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  const outcome = readOutcome(stdout, code);
  const outputs = [
    outputBlock("status", outcome.status),
    outputBlock("exit-code", String(outcome.exitCode)),
    outputBlock("cost", outcome.costUsd === null ? "" : String(outcome.costUsd)),
    outputBlock("session-id", outcome.sessionId ?? ""),
    outputBlock("text", outcome.text),
  ].join("");
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, outputs);
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, summary(outcome));
  if (code === 0) return 0;
  const why = `shiro exited ${code} (${outcome.status})${outcome.error ? `: ${outcome.error.replace(/\s+/g, " ")}` : ""}`;
  if (/^(false|no|0|off)$/i.test((env.INPUT_FAIL_ON_ERROR ?? "true").trim())) {
    process.stdout.write(`::warning::${escapeData(why)}; the step goes on (fail-on-error: false)\n`);
    return 0;
  }
  process.stdout.write(`::error::${escapeData(why)}\n`);
  return code;
}

if (import.meta.main) process.exit(await main(process.env));
