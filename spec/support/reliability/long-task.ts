/**
 * Long task: a scripted task of many tool steps on the strict fake server, with a pruning
 * threshold small enough that most requests are pruned, run once per wire × model:
 * `gpt-5` (a reasoning model; on the Responses wire every reply carries a reasoning item) and an
 * id the SDK does not know (`acme-coder-1`), which it treats as a non-reasoning model even though
 * the replies still carry reasoning items.
 *
 * The task starts with todo_write, remembers a fact every 20 steps, updates the task list every
 * 25, and is split in two turns: the second half is a `shiro -c`. Checks:
 * - zero requests refused by the strict server, both turns end with success;
 * - the task list is the last item of every request after the first todo_write, and it is the
 *   latest list (so the `-c` continues with the task list intact);
 * - the memory block is in every request of the `-c` turn (memory is read when a session starts)
 *   and holds the facts remembered in the first turn;
 * - at least ten requests were pruned (their history carries the digest of pruned tool calls);
 * - every request's history is under the threshold, measured on the wire (the system prompt and
 *   the tool definitions, which shiro's estimate does not count, are measured and reported apart).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MEMORY_BLOCK_HEADER } from "../../../lib/memory/boot-block.ts";
import { renderTodos } from "../../../lib/notebook/render.ts";
import type { Todo } from "../../../lib/notebook/schema.ts";
import { DIGEST_HEADER } from "../../../lib/prune/digest.ts";
import { startFakeServer, type Reply } from "../fake-openai.ts";
import { jsonLines, runShiro } from "../cli.ts";
import { instructionsIn, taskListIn, WIRES } from "../requests.ts";

/** How much longer the Responses wire writes a conversation than shiro's estimate of it (see the check). */
const RESPONSES_WIRE_SLACK = 1.03;
import { auditHome, crashSign, figure, pool, tempDir, type Figure } from "./support.ts";

export type LongTaskOptions = {
  steps: number;
  /** SHIRO_COMPACT_AT for the run. */
  threshold?: number;
  models?: string[];
  concurrency?: number;
};

function workspace(): string {
  const work = tempDir("shiro-long-work-");
  mkdirSync(join(work, "src"));
  for (let i = 0; i < 8; i++) {
    writeFileSync(join(work, "src", `module${i}.ts`), Array.from({ length: 120 }, (_, n) => `export function f${i}_${n}(x: number): number { return x * ${n} + ${i}; }`).join("\n") + "\n");
  }
  writeFileSync(join(work, "notes.md"), "# notes\n\nnothing yet\n");
  return work;
}

function todosAt(step: number, total: number): Todo[] {
  const done = Math.floor((step / total) * 4);
  return ["map the modules", "read every function", "record what was learned", "write the report"].map((content, i) => ({
    content,
    status: i < done ? "completed" : i === done ? "in_progress" : "pending",
  })) as Todo[];
}

/** Step i of the scripted task (same script for every wire and model). */
function stepReply(i: number, total: number, reasoning: boolean): { reply: Reply; todos?: Todo[]; fact?: string } {
  const think = reasoning ? { reasoning: `step ${i}: ${"weighing what to read next. ".repeat(4)}` } : {};
  if (i === 0 || i % 25 === 0) {
    const todos = todosAt(i, total);
    return { reply: { ...think, toolCalls: [{ name: "todo_write", input: { todos } }] }, todos };
  }
  if (i % 20 === 7) {
    const fact = `long task fact ${i}: module${i % 8}.ts defines 120 pure functions f${i % 8}_0 to f${i % 8}_119`;
    return { reply: { ...think, toolCalls: [{ name: "remember", input: { kind: "fact", text: fact } }] }, fact };
  }
  const m = i % 8;
  const calls = [
    { name: "read_file", input: { path: `src/module${m}.ts`, offset: 1 + (i % 100), limit: 20 } },
    { name: "grep", input: { pattern: `f${m}_${i % 120}\\b` } },
    { name: "bash", input: { command: `seq ${i} $((${i} + 40))` } },
    { name: "list_dir", input: { path: i % 2 ? "src" : "." } },
    { name: "edit_file", input: { path: "notes.md", oldString: i === 1 ? "nothing yet" : `step ${prevEdit(i)}`, newString: `step ${i}` } },
  ];
  return { reply: { ...think, ...(i % 9 === 0 ? { text: `Progress: step ${i}.` } : {}), toolCalls: [calls[i % calls.length]!] } };
}

/** The step before `i` that edited notes.md (edit_file is every fifth call from step 1 on, skipping todo/remember steps). */
const editSteps = new Map<number, number>();
function prevEdit(i: number): number {
  return editSteps.get(i) ?? 1;
}
function planEdits(total: number) {
  editSteps.clear();
  let last = 1;
  for (let i = 1; i < total; i++) {
    if (i % 25 === 0 || i % 20 === 7 || i % 5 !== 4) continue;
    editSteps.set(i, last);
    last = i;
  }
}

type Combo = { wire: (typeof WIRES)[number]; model: string };

export async function runLongTaskCase(combo: Combo, opts: LongTaskOptions): Promise<{ problems: string[]; notes: Record<string, number | string> }> {
  const problems: string[] = [];
  const total = opts.steps;
  const threshold = opts.threshold ?? 6_000;
  const reasoning = combo.wire.wire === "responses";
  const where = `${combo.wire.wire} with ${combo.model}`;
  const home = tempDir("shiro-long-home-");
  const work = workspace();
  planEdits(total);
  const half = Math.floor(total / 2);
  const scripted = Array.from({ length: total }, (_, i) => stepReply(i, total, reasoning));
  const turn = (from: number, to: number): Reply[] => [...scripted.slice(from, to).map((s) => s.reply), { ...(reasoning ? { reasoning: "summing up" } : {}), text: `Done with steps ${from} to ${to - 1}.` }];
  const server = await startFakeServer({ replies: turn(0, half) });
  const env = { SHIRO_COMPACT_AT: String(threshold) };
  const flags = ["--json", "--yolo", "-m", combo.model, "--max-steps", String(total), ...combo.wire.flags];

  const first = await runShiro(["-p", "work through every module and keep notes", ...flags], { baseURL: server.url, home, cwd: work, env, timeoutMs: 300_000 });
  const firstRequests = server.requests.length;
  if (firstRequests !== half + 1) problems.push(`${where}: the first turn made ${firstRequests} requests, expected ${half + 1}`);
  server.push(...turn(half, total));
  const second = await runShiro(["-c", "-p", "carry on where you left off", ...flags], { baseURL: server.url, home, cwd: work, env, timeoutMs: 300_000 });

  for (const [name, run] of [["first turn", first], ["-c turn", second]] as const) {
    const crash = crashSign(run);
    if (crash) problems.push(`${where}, ${name}: ${crash}`);
    const result = (() => {
      try {
        return jsonLines(run.stdout).at(-1);
      } catch {
        return undefined;
      }
    })();
    if (run.code !== 0 || result?.status !== "success") problems.push(`${where}, ${name}: exit ${run.code}, status ${result?.status}: ${result?.error ?? run.stderr.trim().split("\n")[0]}`);
  }
  if (server.errors.length > 0) problems.push(`${where}: the strict server refused ${server.errors.length} requests, first: ${server.errors[0]}`);
  if (server.pending() !== 0) problems.push(`${where}: ${server.pending()} scripted replies never requested`);
  const expectedRequests = total + 2;
  if (server.requests.length !== expectedRequests) problems.push(`${where}: ${server.requests.length} requests, expected ${expectedRequests}`);

  let pruned = 0;
  let maxHistoryTokens = 0;
  let maxSystemTokens = 0;
  let maxToolTokens = 0;
  let maxTotalTokens = 0;
  let currentTodos: Todo[] | undefined;
  const remembered: string[] = [];
  server.requests.forEach((request, r) => {
    const body = request.body;
    // Request r is step r of the first turn; request `half` got the first turn's closing answer;
    // after it come the second turn's steps.
    const step = r < half ? r : r === half ? undefined : r - 1;
    const system = instructionsIn(body);
    const history = Array.isArray(body.input) ? body.input : body.messages.filter((m: any) => m.role !== "system" && m.role !== "developer");
    // The task list rides after the conversation, on the wire only (task-list-note.ts): the
    // threshold is the conversation's, as the instructions and tools are not counted in it either.
    const conversation = taskListIn(body) ? history.slice(0, -1) : history;
    const historyTokens = Math.ceil(JSON.stringify(conversation).length / 4);
    const toolTokens = Math.ceil(JSON.stringify(body.tools ?? []).length / 4);
    maxHistoryTokens = Math.max(maxHistoryTokens, historyTokens);
    maxSystemTokens = Math.max(maxSystemTokens, Math.ceil(system.length / 4));
    maxToolTokens = Math.max(maxToolTokens, toolTokens);
    maxTotalTokens = Math.max(maxTotalTokens, Math.ceil(JSON.stringify(body).length / 4));
    if (JSON.stringify(history).includes(DIGEST_HEADER.slice(0, 30))) pruned++;
    if (currentTodos) {
      const list = taskListIn(body);
      if (!list) problems.push(`${where}: request ${r} has no task list at its end`);
      else if (!list.endsWith(renderTodos(currentTodos))) problems.push(`${where}: request ${r} shows a stale task list`);
    }
    if (r >= firstRequests) {
      if (!system.includes(MEMORY_BLOCK_HEADER)) problems.push(`${where}: request ${r} of the -c turn has no memory block`);
      for (const fact of remembered.slice(0, 20)) if (!system.includes(fact)) problems.push(`${where}: request ${r} of the -c turn lacks the fact "${fact.slice(0, 40)}…"`);
    }
    // The threshold holds for shiro's estimate of its own messages; the Responses wire writes the
    // same conversation a little longer (item ids, statuses, call ids): up to 1.5% here.
    const allowed = Math.floor(threshold * (combo.wire.wire === "responses" ? RESPONSES_WIRE_SLACK : 1));
    if (historyTokens > allowed) problems.push(`${where}: request ${r} carries ${historyTokens} estimated tokens of history, over the ${threshold} threshold`);
    const s = step === undefined ? undefined : scripted[step];
    if (s?.todos) currentTodos = s.todos;
    if (s?.fact && r < firstRequests) remembered.push(s.fact);
  });
  if (pruned < 10) problems.push(`${where}: only ${pruned} requests were pruned (at least 10 wanted)`);

  const audit = auditHome(home);
  for (const p of audit.problems) problems.push(`${where}: ${p}`);
  const session = [...audit.sessions.values()][0];
  if (audit.sessions.size !== 1) problems.push(`${where}: ${audit.sessions.size} sessions, expected the one continued`);
  if (session && JSON.stringify(session.todos) !== JSON.stringify(currentTodos)) problems.push(`${where}: the saved task list is not the last one written`);
  // The whole history is kept on disk, pruning touches only the wire.
  const savedCalls = session ? session.messages.filter((m) => m.role === "tool").length : 0;
  if (savedCalls < total) problems.push(`${where}: the session keeps ${savedCalls} tool results of ${total}`);
  const facts = scripted.filter((s) => s.fact).map((s) => s.fact!);
  const missingFacts = facts.filter((f) => !audit.notes.includes(f));
  if (missingFacts.length > 0) problems.push(`${where}: ${missingFacts.length} remembered facts are not in the store`);
  await server.close();
  for (const dir of [home, work]) rmSync(dir, { recursive: true, force: true });
  return {
    problems,
    notes: {
      requests: server.requests.length,
      pruned,
      maxHistoryTokens,
      maxSystemTokens,
      maxToolTokens,
      maxTotalTokens,
    },
  };
}

export async function runLongTaskCheck(opts: LongTaskOptions): Promise<Figure> {
  const f = figure("long task");
  const models = opts.models ?? ["gpt-5", "acme-coder-1"];
  const combos: Combo[] = WIRES.flatMap((wire) => models.map((model) => ({ wire, model })));
  const threshold = opts.threshold ?? 6_000;
  await pool(combos, opts.concurrency ?? 2, async (combo) => {
    const { problems, notes } = await runLongTaskCase(combo, opts);
    f.runs++;
    f.filesChecked++;
    for (const p of problems) f.fail(p);
    const key = `${combo.wire.wire}/${combo.model}`;
    f.notes[key] =
      `${notes.requests} requests, ${notes.pruned} pruned; history ≤ ${notes.maxHistoryTokens} of ${threshold} est. tokens ` +
      `(+ system prompt ≤ ${notes.maxSystemTokens}, tool definitions ${notes.maxToolTokens}; whole request ≤ ${notes.maxTotalTokens})`;
  });
  f.notes.stepsPerRun = opts.steps;
  f.notes.threshold = threshold;
  return f;
}
