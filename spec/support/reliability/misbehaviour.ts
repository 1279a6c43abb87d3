/**
 * Model misbehaviour, over both wires: what a confused or hostile model can send. Each case runs a
 * `shiro -p --json` with the scripted misbehaviour, then a `shiro -c -p` on the same session. The
 * misbehaviour must end as error results or limits the model can read — never a crash — and the
 * history must stay one the strict server accepts: zero refused requests, in the run and in the
 * `-c` after it. Cases with a size limit also check that what went over the wire stayed small.
 */
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeServer, type Reply } from "../fake-openai.ts";
import { jsonLines, runShiro } from "../cli.ts";
import { toolOutputsIn, WIRES } from "../requests.ts";
import { auditHome, crashSign, figure, pool, tempDir, type Figure } from "./support.ts";

const FIVE_MB = 5 * 1024 * 1024;

export type MisbehaviourCase = {
  name: string;
  replies: (ctx: { work: string; outside: string }) => Reply[];
  flags?: string[];
  /** Exit code of the first run. */
  exit: number;
  /** History checks (lib/prune/validate.ts codes) not to apply: the strict server is the judge for these. */
  ignore?: string[];
  /** Checks on the first run's events and requests; returns problems. */
  check: (run: { events: Array<Record<string, any>>; bodies: any[]; work: string; outside: string }) => string[];
};

const errorsOf = (events: Array<Record<string, any>>) => events.filter((e) => e.type === "tool-error").map((e) => String(e.error));
const largestBody = (bodies: any[]) => Math.max(0, ...bodies.map((b) => JSON.stringify(b).length));

export const MISBEHAVIOUR_CASES: MisbehaviourCase[] = [
  {
    name: "invalid JSON arguments",
    replies: () => [{ toolCalls: [{ name: "read_file", input: '{"path": "README.md", "limit": ' }] }, { text: "sorry" }],
    exit: 0,
    check: ({ events }) => (errorsOf(events).length === 1 ? [] : [`expected one tool error, got ${JSON.stringify(errorsOf(events))}`]),
  },
  {
    name: "arguments of the wrong types",
    replies: () => [{ toolCalls: [{ name: "read_file", input: { path: ["README.md"], limit: "all" } }] }, { text: "sorry" }],
    exit: 0,
    check: ({ events }) => (errorsOf(events).some((e) => /invalid arguments/.test(e)) ? [] : [`expected an invalid-arguments error, got ${JSON.stringify(errorsOf(events))}`]),
  },
  {
    name: "an unknown tool name",
    replies: () => [{ toolCalls: [{ name: "launch_rockets", input: { target: "moon" } }, { name: "list_dir", input: {} }] }, { text: "sorry" }],
    exit: 0,
    check: ({ events }) => (errorsOf(events).length === 1 && events.some((e) => e.type === "tool-result" && e.tool === "list_dir") ? [] : [`expected one tool error and the list_dir result, got ${JSON.stringify(errorsOf(events))}`]),
  },
  {
    name: "a tool-call loop until the step cap",
    replies: () => Array.from({ length: 12 }, (_, i) => ({ toolCalls: [{ name: "list_dir", input: { path: i % 2 ? "." : "sub" } }] })),
    flags: ["--max-steps", "6"],
    exit: 3,
    check: ({ events }) => {
      const result = events.at(-1);
      return result?.status === "step-cap" && result.steps === 6 ? [] : [`expected status step-cap after 6 steps, got ${JSON.stringify({ status: result?.status, steps: result?.steps })}`];
    },
  },
  {
    name: "a 5 MB bash output",
    replies: () => [{ toolCalls: [{ name: "bash", input: { command: `head -c ${FIVE_MB} /dev/zero | tr '\\0' 'x' | fold -w 100` } }] }, { text: "that was long" }],
    flags: ["--yolo"],
    exit: 0,
    check: ({ bodies }) => {
      const output = toolOutputsIn(bodies.at(-1)).join("");
      const problems: string[] = [];
      if (output.length > 40_000) problems.push(`the model received ${output.length} characters of output`);
      if (!/not shown|truncated|omitted/i.test(output)) problems.push("the output does not say it was cut");
      if (largestBody(bodies) > 200_000) problems.push(`a request carried ${largestBody(bodies)} bytes`);
      return problems;
    },
  },
  {
    name: "reading a 5 MB file",
    replies: () => [{ toolCalls: [{ name: "read_file", input: { path: "big.log" } }] }, { toolCalls: [{ name: "grep", input: { pattern: "line 4999" } }] }, { text: "read it" }],
    exit: 0,
    check: ({ bodies }) => {
      const outputs = toolOutputsIn(bodies.at(-1));
      const problems: string[] = [];
      for (const out of outputs) if (out.length > 40_000) problems.push(`a tool result of ${out.length} characters reached the model`);
      if (largestBody(bodies) > 200_000) problems.push(`a request carried ${largestBody(bodies)} bytes`);
      return problems;
    },
  },
  {
    name: "paths outside the workspace",
    replies: ({ outside }) => [
      {
        toolCalls: [
          { name: "read_file", input: { path: "../../../../etc/passwd" } }, // spec-boundary: shiro is asked to read it, and must refuse
          { name: "read_file", input: { path: join(outside, "secret.txt") } },
          { name: "write_file", input: { path: join(outside, "planted.txt"), content: "x" } },
          { name: "list_dir", input: { path: outside } },
          { name: "read_file", input: { path: "escape/secret.txt" } },
        ],
      },
      { text: "could not" },
    ],
    flags: ["--yolo"],
    exit: 0,
    check: ({ events, outside }) => {
      const problems: string[] = [];
      const errors = errorsOf(events);
      if (errors.length !== 5 || !errors.every((e) => /outside the workspace/.test(e))) problems.push(`expected 5 "outside the workspace" errors, got ${JSON.stringify(errors)}`);
      if (existsSync(join(outside, "planted.txt"))) problems.push("a file was written outside the workspace");
      if (JSON.stringify(events).includes("the outside secret")) problems.push("content from outside the workspace reached the model");
      return problems;
    },
  },
  {
    name: "deeply nested arguments (2,000 levels)",
    replies: () => [{ toolCalls: [{ name: "read_file", input: `{"path":${"[".repeat(2_000)}1${"]".repeat(2_000)}}` }] }, { text: "odd" }],
    exit: 0,
    check: ({ events }) => (errorsOf(events).length === 1 ? [] : [`expected one tool error, got ${errorsOf(events).length}`]),
  },
  {
    // Deeper than the AI SDK can copy: the step fails inside the SDK, so the turn ends with an error.
    name: "deeply nested arguments (50,000 levels)",
    replies: () => [{ toolCalls: [{ name: "read_file", input: `{"path":${"[".repeat(50_000)}1${"]".repeat(50_000)}}` }] }],
    exit: 1,
    check: ({ events }) => {
      const error = String(events.at(-1)?.error ?? "");
      return error && !/\n/.test(error) && /nested too deeply/.test(error) ? [] : [`expected a one-line "nested too deeply" error, got ${JSON.stringify(error.slice(0, 200))}`];
    },
  },
  {
    // 25,000 argument deltas on the fake wire. (5 MB would be 650,000 deltas, more than any model's output limit.)
    name: "a 200 KB argument (a big file written in one call)",
    replies: () => [{ toolCalls: [{ name: "write_file", input: { path: "big.txt", content: "y".repeat(200_000) } }] }, { text: "written" }],
    flags: ["--yolo"],
    exit: 0,
    check: ({ work }) => (Bun.file(join(work, "big.txt")).size === 200_000 ? [] : ["the file was not written whole"]),
  },
  {
    // The chat provider renames the second call; on the Responses wire both keep the id and each
    // result follows its call. The strict server accepts that; validateHistory flags it.
    name: "two calls with the same id",
    replies: () => [{ toolCalls: [{ name: "list_dir", input: {}, id: "call_twice" }, { name: "glob", input: { pattern: "*" }, id: "call_twice" }] }, { text: "done" }],
    ignore: ["duplicate-call-id", "duplicate-result"],
    exit: 0,
    check: () => [],
  },
  {
    name: "an empty reply",
    replies: () => [{}],
    exit: 0,
    check: () => [],
  },
];

function workspace(): { work: string; outside: string } {
  const work = tempDir("shiro-misb-work-");
  const outside = tempDir("shiro-misb-outside-");
  writeFileSync(join(work, "README.md"), "# misbehaviour workspace\n");
  writeFileSync(join(outside, "secret.txt"), "the outside secret\n");
  mkdirSync(join(work, "sub"));
  symlinkSync(outside, join(work, "escape"));
  const lines: string[] = [];
  for (let i = 0, size = 0; size < FIVE_MB; i++) {
    const line = `line ${i} ${"log entry ".repeat(8)}`;
    lines.push(line);
    size += line.length + 1;
  }
  writeFileSync(join(work, "big.log"), lines.join("\n"));
  return { work, outside };
}

export async function runMisbehaviourCase(c: MisbehaviourCase, wire: (typeof WIRES)[number]): Promise<string[]> {
  const where = `${c.name} over ${wire.wire}`;
  const problems: string[] = [];
  const home = tempDir("shiro-misb-home-");
  const { work, outside } = workspace();
  const server = await startFakeServer({ replies: c.replies({ work, outside }) });
  const first = await runShiro(["-p", "do the task", "--json", ...(c.flags ?? []), ...wire.flags], { baseURL: server.url, home, cwd: work, timeoutMs: 60_000 });
  const crash = crashSign(first);
  if (crash) problems.push(`${where}: ${crash}`);
  if (first.code !== c.exit) problems.push(`${where}: exit ${first.code}, expected ${c.exit}: ${first.stderr.trim().split("\n")[0]}`);
  let events: Array<Record<string, any>> = [];
  try {
    events = jsonLines(first.stdout);
  } catch {
    problems.push(`${where}: --json stdout has a line that is not JSON`);
  }
  if (events.at(-1)?.type !== "result") problems.push(`${where}: no result record`);
  const bodies = server.requests.filter((r) => r.wire !== "other").map((r) => r.body);
  for (const p of c.check({ events, bodies, work, outside })) problems.push(`${where}: ${p}`);
  if (server.errors.length > 0) problems.push(`${where}: the strict server refused a request: ${server.errors[0]}`);
  const audit = auditHome(home, { ignore: c.ignore ?? [] });
  for (const p of audit.problems) problems.push(`${where}: ${p}`);
  const sessionBytes = audit.sessions.size ? Math.max(...[...audit.sessions.values()].map((s) => JSON.stringify(s.messages).length)) : 0;
  if (c.name.startsWith("a 5 MB bash") && sessionBytes > 1_000_000) problems.push(`${where}: the session holds ${sessionBytes} bytes`);

  server.push({ text: "the next prompt works" });
  const errorsBefore = server.errors.length;
  const next = await runShiro(["-c", "-p", "next prompt", ...wire.flags], { baseURL: server.url, home, cwd: work, timeoutMs: 60_000 });
  if (next.code !== 0) problems.push(`${where}: the next -c prompt failed: exit ${next.code}: ${next.stderr.trim().split("\n")[0]}`);
  if (server.errors.length > errorsBefore) problems.push(`${where}: the strict server refused the next prompt: ${server.errors.at(-1)}`);
  await server.close();
  for (const dir of [home, work, outside]) rmSync(dir, { recursive: true, force: true });
  return problems;
}

/** `wires: "alternate"` (the reduced run) takes each case over one wire, alternating; "both" over each. */
export async function runMisbehaviourCheck(opts: { concurrency?: number; wires?: "both" | "alternate" } = {}): Promise<Figure> {
  const f = figure("model misbehaviour");
  const both = (opts.wires ?? "both") === "both";
  const jobs = MISBEHAVIOUR_CASES.flatMap((c, i) => (both ? WIRES : [WIRES[i % 2]!]).map((w) => ({ c, w })));
  await pool(jobs, opts.concurrency ?? 3, async ({ c, w }) => {
    const problems = await runMisbehaviourCase(c, w);
    f.runs++;
    f.filesChecked++;
    for (const p of problems) f.fail(p);
  });
  f.notes.cases = `${MISBEHAVIOUR_CASES.length} kinds, ${both ? "over both wires" : "each over one wire, alternating"}`;
  return f;
}
