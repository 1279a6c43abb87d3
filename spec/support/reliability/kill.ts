/**
 * Kill -9: a long scripted tool loop (reads, greps, bash, todo_write, remember) is killed with
 * SIGKILL at a random moment, over and over, in one SHIRO_HOME and one project. Runs alternate at
 * random between a new session and `-c` on the previous one, and between the two wires.
 *
 * After every kill:
 * - every session, memory and history file under SHIRO_HOME parses, passes its schema, and (for
 *   sessions) holds a history a strict provider accepts (auditHome);
 * - no file was set aside as corrupt;
 * - the run's session holds every step the server had been told about, except at most the
 *   last one: the tool calls in the last request the server accepted are compared with the tool
 *   calls saved. Steps lost beyond that are counted as `steps lost` and, when they all finished
 *   inside the autosave window (400 ms) before the kill, as `within debounce`.
 * A `-c` after a kill is itself a check that the killed session can be sent to a strict server.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeServer, type Reply } from "../fake-openai.ts";
import { AUTOSAVE_DEBOUNCE_MS } from "../../../lib/sessions/autosave.ts";
import { auditHome, callIdsInRequest, callIdsOf, figure, prng, spawnShiro, tempDir, type Figure } from "./support.ts";

export type KillOptions = {
  runs: number;
  seed?: number;
  /** Tool steps scripted per run (the loop is killed long before most of them). */
  steps?: number;
  /** Kill moment: uniform in [0, windowMs] after the first request reached the server (plus start-up). */
  windowMs?: number;
  /** Stop early (not failing) when the check has run this long. */
  budgetMs?: number;
  /**
   * Lanes run side by side, each with its own SHIRO_HOME, project, server and seed (seed + lane).
   * A "fast" lane's steps take as long as the machine needs (~20 ms); a "paced" lane's replies
   * stream with 60 ms between events, so a step takes about as long as a real model's (> 400 ms).
   */
  lanes?: Array<"fast" | "paced">;
};

/** Pause between a paced reply's stream events: ten or so events make a step of well over the 400 ms autosave delay. */
const PACED_EVENT_DELAY_MS = 60;

type Tally = { stepsLost: number; lostBeyondLast: number; withinDebounce: number; maxLost: number; continued: number; killedBeforeFirstRequest: number };

function workspace(): string {
  const work = tempDir("shiro-kill-work-");
  mkdirSync(join(work, "src"));
  for (let i = 0; i < 4; i++) writeFileSync(join(work, "src", `part${i}.ts`), Array.from({ length: 60 }, (_, n) => `export const line${n} = ${n}; // part ${i}`).join("\n"));
  writeFileSync(join(work, "README.md"), "# kill -9 workspace\n");
  return work;
}

/** A varied tool loop: todo_write first, then reads, greps, list_dir, bash, remember, a todo update every tenth step. */
function script(run: number, steps: number, reasoning: boolean, delayMs: number): Reply[] {
  const replies: Reply[] = [];
  const todos = (done: number) => ({
    todos: [
      { content: "survey the sources", status: done > 0 ? "completed" : "in_progress" },
      { content: `run ${run}: read every part`, status: done > 0 ? "in_progress" : "pending" },
      { content: "write the summary", status: "pending" },
    ],
  });
  for (let i = 0; i < steps; i++) {
    const call =
      i === 0
        ? { name: "todo_write", input: todos(0) }
        : i % 10 === 0
          ? { name: "todo_write", input: todos(i) }
          : i % 7 === 3
            ? { name: "remember", input: { kind: "fact", text: `kill run ${run} step ${i}: part${i % 4}.ts exports sixty constants` } }
            : [
                { name: "read_file", input: { path: `src/part${i % 4}.ts`, offset: 1 + (i % 50), limit: 5 } },
                { name: "grep", input: { pattern: `line${i % 60}\\b` } },
                { name: "list_dir", input: { path: i % 2 ? "src" : "." } },
                { name: "bash", input: { command: `echo run ${run} step ${i}` } },
              ][i % 4]!;
    replies.push({ ...(reasoning ? { reasoning: `step ${i}` } : {}), toolCalls: [call], ...(delayMs ? { delayMs } : {}) });
  }
  replies.push({ ...(reasoning ? { reasoning: "done" } : {}), text: "All parts read." });
  return replies;
}

export async function runKillCheck(opts: KillOptions): Promise<Figure> {
  const f = figure("kill -9");
  const lanes = opts.lanes ?? ["fast", "paced"];
  const tally: Tally = { stepsLost: 0, lostBeyondLast: 0, withinDebounce: 0, maxLost: 0, continued: 0, killedBeforeFirstRequest: 0 };
  const started = performance.now();
  await Promise.all(
    lanes.map((pace, lane) => {
      const runs = Math.floor(opts.runs / lanes.length) + (lane < opts.runs % lanes.length ? 1 : 0);
      return killLane(f, tally, { ...opts, runs, seed: (opts.seed ?? 9) + lane, budgetMs: (opts.budgetMs ?? Number.POSITIVE_INFINITY) - (performance.now() - started) }, pace);
    }),
  );
  f.notes.lanes = lanes.join(" + ");
  f.notes.continued = tally.continued;
  f.notes.killedBeforeFirstRequest = tally.killedBeforeFirstRequest;
  f.notes.stepsLost = tally.stepsLost;
  f.notes.maxStepsLostInOneRun = tally.maxLost;
  f.notes.runsLosingMoreThanLastStep = tally.lostBeyondLast;
  f.notes.ofThoseAllWithinAutosaveWindow = tally.withinDebounce;
  return f;
}

async function killLane(f: ReturnType<typeof figure>, tally: Tally, opts: KillOptions, pace: "fast" | "paced"): Promise<void> {
  const seed = opts.seed ?? 9;
  const rand = prng(seed);
  const paced = pace === "paced";
  const steps = opts.steps ?? (paced ? 40 : 200);
  const windowMs = (opts.windowMs ?? 1500) * (paced ? 2 : 1);
  const budgetMs = opts.budgetMs ?? Number.POSITIVE_INFINITY;
  const home = tempDir("shiro-kill-home-");
  const work = workspace();
  // One server for the whole check, as one provider for all of a user's runs: items it issued stay
  // resolvable across runs, so a -c after a kill is judged like a resumed session on OpenAI.
  const server = await startFakeServer();
  let lastSession: string | undefined;
  const started = performance.now();

  for (let run = 0; run < opts.runs; run++) {
    if (performance.now() - started > budgetMs) {
      f.notes[`stoppedEarly${seed}`] = `lane seed ${seed}: after ${run} of ${opts.runs} runs (time budget)`;
      break;
    }
    const chat = rand() < 0.5;
    const resume = lastSession !== undefined && rand() < 0.5;
    const before = auditHome(home);
    const priorCalls = new Set(resume && lastSession ? callIdsOf(before.sessions.get(lastSession)?.messages ?? []) : []);
    // Replies a killed run never asked for stay queued and serve the next run: they are tool calls too.
    if (server.pending() < steps) server.push(...script(run, steps, !chat, paced ? PACED_EVENT_DELAY_MS : 0));
    const firstRequest = server.requests.length;
    const firstError = server.errors.length;
    const requests = () => server.requests.slice(firstRequest);
    // When each request arrived: the previous step had finished (its results are in it).
    const arrivals: number[] = [];
    const watcher = setInterval(() => {
      while (arrivals.length < requests().length) arrivals.push(performance.now());
    }, 2);
    const args = [...(resume ? ["-c"] : []), "-p", `kill run ${run}: read every part`, "--yolo", "--max-steps", String(steps + 5), "-m", chat ? "gpt-4.1" : "gpt-5", ...(chat ? ["--api", "chat"] : [])];
    const proc = spawnShiro(args, { home, cwd: work, baseURL: server.url });
    // One kill in ten lands during start-up (loading config, the session, memory); the rest at a
    // random moment of the loop, measured from the first request so start-up time does not matter.
    const duringStartup = rand() < 0.1;
    const delay = rand() * (duringStartup ? 400 : windowMs);
    if (!duringStartup) {
      const deadline = performance.now() + 15_000;
      while (requests().length === 0 && performance.now() < deadline && proc.child.exitCode === null) await Bun.sleep(2);
    }
    await Bun.sleep(delay);
    if (requests().length === 0) tally.killedBeforeFirstRequest++;
    const killedAt = performance.now();
    proc.child.kill("SIGKILL");
    const result = await proc.done();
    clearInterval(watcher);
    while (arrivals.length < requests().length) arrivals.push(killedAt);
    f.runs++;
    if (resume) tally.continued++;

    const where = `seed ${seed} ${pace} run ${run} (${chat ? "chat" : "responses"}, ${resume ? "-c" : "new"}, killed ${Math.round(delay)} ms ${duringStartup ? "after spawn" : "into the loop"})`;
    if (result.code !== 137 && result.code !== 0) f.fail(`${where}: exited ${result.code} before the kill: ${result.stderr.slice(0, 200)}`);
    if (server.errors.length > firstError) f.fail(`${where}: the strict server rejected a request: ${server.errors[firstError]}`);

    const audit = auditHome(home);
    f.filesChecked += audit.files;
    for (const problem of audit.problems) f.fail(`${where}: ${problem}`);
    if (audit.setAside.length > before.setAside.length) f.fail(`${where}: a file was set aside as corrupt: ${audit.setAside.at(-1)}`);

    // Which session this run wrote: the continued one, or the one that did not exist before.
    const fresh = [...audit.sessions.keys()].filter((id) => !before.sessions.has(id));
    const id = fresh[0] ?? (resume ? lastSession : undefined);
    if (fresh.length > 1) f.fail(`${where}: ${fresh.length} new sessions from one run`);
    const saved = id ? callIdsOf(audit.sessions.get(id)?.messages ?? []).filter((c) => !priorCalls.has(c)) : [];
    if (fresh[0]) lastSession = fresh[0];
    // Continuing a session that another (dead) process held must not fork: its lock is stale.
    if (resume && fresh.length > 0) f.fail(`${where}: -c forked instead of taking over the dead process's session`);

    const last = requests().at(-1);
    const told = last ? callIdsInRequest(last.body).filter((c) => !priorCalls.has(c)) : [];
    const unknown = saved.filter((c) => !told.includes(c));
    // At most the calls of the reply in flight may be saved without the server having seen their results.
    if (unknown.length > 1) f.fail(`${where}: ${unknown.length} saved tool calls the server never saw answered`);
    const lost = told.filter((c) => !saved.includes(c)).length;
    tally.stepsLost += lost;
    tally.maxLost = Math.max(tally.maxLost, lost);
    if (lost > 1) {
      tally.lostBeyondLast++;
      // Steps whose results reached the server: step j finished when request j+1 arrived.
      const oldest = Math.min(...arrivals.slice(arrivals.length - lost, arrivals.length));
      const withinWindow = killedAt - oldest <= AUTOSAVE_DEBOUNCE_MS + 100;
      if (withinWindow) tally.withinDebounce++;
      // At a model's pace at most the last step may be missing (the promise). At machine
      // pace the documented promise is weaker: nothing older than the 400 ms autosave delay.
      if (paced) f.fail(`${where}: ${lost} steps lost at a model's pace (at most 1 allowed)`);
      else if (!withinWindow) f.fail(`${where}: ${lost} steps lost, the oldest finished ${Math.round(killedAt - oldest)} ms before the kill`);
    }
  }
  await server.close();
  for (const dir of [home, work]) rmSync(dir, { recursive: true, force: true });
}
