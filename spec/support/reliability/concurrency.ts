/**
 * Concurrency: several shiro processes on one project at the same moment.
 *
 * Memory: 8 `shiro -p` processes start together in one project (one SHIRO_HOME), each
 * remembering 5 facts of its own, two of them in one step (parallel tool calls). Every one of the
 * 40 facts must be in the project's store afterwards, the store must parse, and no lock or
 * set-aside file may be left.
 *
 * Sessions: after one base conversation, 8 `shiro -c -p` start together in the same directory.
 * One continues the base session; the others find it held and fork. No conversation may be lost:
 * each prompt's exchange (the prompt and its own answer) is in exactly one session file, every
 * fork is announced on stderr, and the number of forks announced equals the number of forked files.
 *
 * Each process talks to its own fake server, so the scripted replies cannot cross between them;
 * the shared state under test is the disk.
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startFakeServer, type FakeServer, type Reply } from "../fake-openai.ts";
import { runShiro } from "../cli.ts";
import { auditHome, crashSign, figure, shiroHomeOf, tempDir, type Figure } from "./support.ts";

export type ConcurrencyOptions = { rounds: number; processes?: number };

export async function runMemoryConcurrency(opts: ConcurrencyOptions): Promise<Figure> {
  const f = figure("concurrency: 8 × -p remembering");
  const n = opts.processes ?? 8;
  for (let round = 0; round < opts.rounds; round++) {
    const home = tempDir("shiro-conc-home-");
    const work = tempDir("shiro-conc-work-");
    const fact = (p: number, k: number) => `round ${round} process ${p} fact ${k}: module m${p}_${k} owns table t${p}_${k}`;
    const servers: FakeServer[] = [];
    for (let p = 0; p < n; p++) {
      const remember = (k: number) => ({ name: "remember", input: { kind: "fact", text: fact(p, k) } });
      servers.push(
        await startFakeServer({
          replies: [{ toolCalls: [remember(0), remember(1)] }, { toolCalls: [remember(2)] }, { toolCalls: [remember(3)] }, { toolCalls: [remember(4)] }, { text: `process ${p} done` }],
        }),
      );
    }
    const runs = await Promise.all(servers.map((s, p) => runShiro(["-p", `remember your facts (${p})`], { baseURL: s.url, cwd: work, home, timeoutMs: 60_000 })));
    f.runs += n;
    const where = `round ${round}`;
    runs.forEach((run, p) => {
      const crash = crashSign(run);
      if (crash) f.fail(`${where} process ${p}: ${crash}`);
      else if (run.code !== 0) f.fail(`${where} process ${p}: exit ${run.code}: ${run.stderr.trim().split("\n")[0]}`);
    });
    servers.forEach((s, p) => {
      if (s.errors.length > 0) f.fail(`${where} process ${p}: server rejected: ${s.errors[0]}`);
    });
    const audit = auditHome(home);
    f.filesChecked += audit.files;
    for (const problem of audit.problems) f.fail(`${where}: ${problem}`);
    if (audit.setAside.length > 0) f.fail(`${where}: set aside: ${audit.setAside.join(", ")}`);
    const missing: string[] = [];
    for (let p = 0; p < n; p++) for (let k = 0; k < 5; k++) if (!audit.notes.includes(fact(p, k))) missing.push(`p${p}/f${k}`);
    if (missing.length > 0) f.fail(`${where}: ${missing.length} of ${n * 5} facts missing from the store: ${missing.join(" ")}`);
    if (audit.notes.length !== n * 5) f.fail(`${where}: the store has ${audit.notes.length} notes, expected ${n * 5}`);
    const memoryDir = join(shiroHomeOf(home), "memory");
    const leftovers = existsSync(memoryDir) ? readdirSync(memoryDir).filter((name) => !/^[0-9a-f]{16}\.json$/.test(name)) : [];
    if (leftovers.length > 0) f.fail(`${where}: files left in the memory directory: ${leftovers.join(", ")}`);
    await Promise.all(servers.map((s) => s.close()));
    for (const dir of [home, work]) rmSync(dir, { recursive: true, force: true });
  }
  f.notes.factsPerRound = n * 5;
  return f;
}

export async function runContinueConcurrency(opts: ConcurrencyOptions): Promise<Figure> {
  const f = figure("concurrency: 8 × -c in one directory");
  const n = opts.processes ?? 8;
  let forksTotal = 0;
  for (let round = 0; round < opts.rounds; round++) {
    const home = tempDir("shiro-conc-home-");
    const work = tempDir("shiro-conc-work-");
    const base = await startFakeServer({ replies: [{ text: "base answer" }] });
    const first = await runShiro(["-p", `base prompt ${round}`], { baseURL: base.url, cwd: work, home });
    await base.close();
    if (first.code !== 0) {
      f.fail(`round ${round}: the base run failed: ${first.stderr.trim()}`);
      continue;
    }
    const prompt = (p: number) => `continuation ${p} of round ${round}`;
    const answer = (p: number) => `answer ${p} of round ${round}`;
    // A slow, streamed answer keeps every run inside its turn while the others start.
    const servers = await Promise.all(
      Array.from({ length: n }, (_, p) => startFakeServer({ replies: [{ text: `${answer(p)} ${"word ".repeat(12)}`, delayMs: 60 } satisfies Reply] })),
    );
    const runs = await Promise.all(servers.map((s, p) => runShiro(["-c", "-p", prompt(p)], { baseURL: s.url, cwd: work, home, timeoutMs: 60_000 })));
    f.runs += n;
    const where = `round ${round}`;
    let announced = 0;
    runs.forEach((run, p) => {
      const crash = crashSign(run);
      if (crash) f.fail(`${where} process ${p}: ${crash}`);
      else if (run.code !== 0) f.fail(`${where} process ${p}: exit ${run.code}: ${run.stderr.trim().split("\n")[0]}`);
      if (/open in another shiro/.test(run.stderr)) announced++;
    });
    servers.forEach((s, p) => {
      if (s.errors.length > 0) f.fail(`${where} process ${p}: server rejected: ${s.errors[0]}`);
    });
    const audit = auditHome(home);
    f.filesChecked += audit.files;
    for (const problem of audit.problems) f.fail(`${where}: ${problem}`);
    const texts = [...audit.sessions.values()].map((s) => JSON.stringify(s.messages));
    for (let p = 0; p < n; p++) {
      const owners = texts.filter((t) => t.includes(prompt(p)) && t.includes(answer(p))).length;
      if (owners !== 1) f.fail(`${where}: the exchange of process ${p} is in ${owners} session files (expected exactly 1)`);
    }
    if (!texts.every((t) => t.includes(`base prompt ${round}`))) f.fail(`${where}: a session lost the base conversation`);
    const forked = audit.sessions.size - 1;
    if (forked !== announced) f.fail(`${where}: ${forked} forked session files but ${announced} fork notices on stderr`);
    forksTotal += forked;
    await Promise.all(servers.map((s) => s.close()));
    for (const dir of [home, work]) rmSync(dir, { recursive: true, force: true });
  }
  f.notes.forks = forksTotal;
  return f;
}
