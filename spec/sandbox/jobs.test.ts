// The job table and its journal, below the tools: what the model reads of a job's output, the cap
// on what is kept, and which left jobs the next start stops (by process id AND start time).
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createJobTable, JOB_OUTPUT_CAP_CHARS } from "../../lib/sandbox/jobs.ts";
import { journalAdd, journalPath, journalRemove, ownerFile, processStart, reapOrphans } from "../../lib/sandbox/jobs-journal.ts";
import { createHostRunner, killGroup } from "../../lib/sandbox/process.ts";
import { tempDir } from "../support/cli.ts";

const host = createHostRunner({ PATH: process.env.PATH ?? "/usr/bin:/bin" });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

describe("the job table", () => {
  test("a read gives what is new since the last one; past the cap the oldest output is dropped, in memory and in the file", async () => {
    const dir = tempDir();
    const jobs = createJobTable({ shiroHome: dir });
    jobs.useDir(join(dir, "s.jobs"));
    const child = host.spawn(["sleep", "30"], { cwd: dir });
    const { id, append } = jobs.add("sleep 30", child, { pid: child.pid! });
    try {
      append("first\n");
      expect((await jobs.read(id, 0))!.text).toBe("first\n");
      append("second\n");
      expect((await jobs.read(id, 0))!.text).toBe("second\n");
      // Nothing new: the read waits for output, and returns as soon as some arrives.
      setTimeout(() => append("third\n"), 100);
      const waited = Date.now();
      expect((await jobs.read(id, 5_000))!.text).toBe("third\n");
      expect(Date.now() - waited).toBeLessThan(2_000);
      // Three times the cap: only the newest cap's worth is kept; the read says what it skipped.
      const line = "x".repeat(99) + "\n";
      for (let i = 0; i < (3 * JOB_OUTPUT_CAP_CHARS) / line.length; i++) append(line);
      append("last\n");
      const read = (await jobs.read(id, 0))!;
      expect(read.text.endsWith("last\n")).toBe(true);
      expect(read.skipped).toBe(3 * JOB_OUTPUT_CAP_CHARS + 5 - read.text.length);
      const file = readFileSync(join(dir, "s.jobs", `${id}.log`), "utf8");
      expect(file.length).toBeLessThanOrEqual(2 * JOB_OUTPUT_CAP_CHARS);
      expect(file.endsWith("last\n")).toBe(true);
      expect(file.startsWith("first")).toBe(false);
    } finally {
      await jobs.stopAll();
    }
    expect(alive(child.pid!)).toBe(false);
  });

  test("a command sent to the background (ctrl-b) keeps what it printed before in its file, and the model reads only what came after", async () => {
    const dir = tempDir();
    const jobs = createJobTable({ shiroHome: dir });
    jobs.useDir(join(dir, "s.jobs"));
    const child = host.spawn(["sleep", "30"], { cwd: dir });
    const { id, append } = jobs.add("sleep 30", child, { pid: child.pid!, seen: "before\n" });
    try {
      append("after\n");
      expect((await jobs.read(id, 0))!.text).toBe("after\n");
      expect(readFileSync(join(dir, "s.jobs", `${id}.log`), "utf8")).toBe("before\nafter\n");
    } finally {
      await jobs.stopAll();
    }
  });

  test("a job that ends on its own is reported once; one that was stopped is not reported", async () => {
    const dir = tempDir();
    const jobs = createJobTable({ shiroHome: dir });
    const quick = host.spawn(["bash", "-c", "exit 4"], { cwd: dir });
    jobs.add("exit 4", quick, { pid: quick.pid! });
    const slow = host.spawn(["sleep", "30"], { cwd: dir });
    const stopped = jobs.add("sleep 30", slow, { pid: slow.pid! });
    await quick.exited;
    await Bun.sleep(0);
    await jobs.kill(stopped.id);
    expect(jobs.takeEnded().map((job) => [job.command, job.state])).toEqual([["exit 4", { type: "exited", exit: { exitCode: 4, signal: null } }]]);
    expect(jobs.takeEnded()).toEqual([]);
  });
});

describe("the journal", () => {
  test("the next start stops a job whose shiro is gone; a live shiro's job, and a process id now someone else's, are left alone", async () => {
    const home = tempDir();
    // A "shiro" that has ended: a process that ran and exited, with the start time it had.
    const gone = Bun.spawn(["true"]);
    const goneStart = processStart(gone.pid) ?? "0";
    await gone.exited;
    const orphan = host.spawn(["sleep", "30"], { cwd: home });
    const kept = host.spawn(["sleep", "30"], { cwd: home });
    const reused = host.spawn(["sleep", "30"], { cwd: home });
    const entry = (pid: number, owner: { pid: number; start: string }, command: string, start = processStart(pid)!) => ({ job: { pid, start }, owner, command });
    const me = { pid: process.pid, start: processStart(process.pid)! };
    const dead = { pid: gone.pid, start: goneStart };
    journalAdd(journalPath(home), entry(orphan.pid!, dead, "the orphan"));
    journalAdd(journalPath(home), entry(kept.pid!, me, "a live shiro's job"));
    // Its id was written down with another start time: the process there now is not the job.
    journalAdd(journalPath(home), entry(reused.pid!, dead, "a reused id", "12345"));
    try {
      expect(readdirSync(journalPath(home)).sort()).toEqual([ownerFile("", dead), ownerFile("", me)].sort());
      expect(await reapOrphans(journalPath(home), killGroup)).toEqual(["the orphan"]);
      expect(alive(orphan.pid!)).toBe(false);
      expect(alive(kept.pid!)).toBe(true);
      expect(alive(reused.pid!)).toBe(true);
      // The gone shiro's file is removed; the live one's is left as it was.
      expect(readdirSync(journalPath(home))).toEqual([ownerFile("", me)]);
      expect(JSON.parse(readFileSync(ownerFile(journalPath(home), me), "utf8")).jobs.map((e: { command: string }) => e.command)).toEqual(["a live shiro's job"]);
    } finally {
      await Promise.all([orphan.stop(), kept.stop(), reused.stop()]);
    }
  });

  test("a broken journal file is set aside and nothing is stopped", async () => {
    const home = tempDir();
    mkdirSync(journalPath(home));
    writeFileSync(join(journalPath(home), "123-456.json"), "{ not json");
    expect(await reapOrphans(journalPath(home), killGroup)).toEqual([]);
    expect(readdirSync(journalPath(home)).some((name) => name.startsWith("123-456.json.corrupt-"))).toBe(true);
  });

  test("two shiros writing jobs at once never lose each other's entries", () => {
    const home = tempDir();
    const a = { pid: 101, start: "1000" };
    const b = { pid: 202, start: "2000" };
    const job = (pid: number) => ({ pid, start: String(pid * 10) });
    // Interleaved as two processes would: each only ever rewrites its own file.
    for (let i = 0; i < 50; i++) {
      journalAdd(journalPath(home), { job: job(1000 + i), owner: a, command: `a ${i}` });
      journalAdd(journalPath(home), { job: job(2000 + i), owner: b, command: `b ${i}` });
      if (i % 2) journalRemove(journalPath(home), a, job(1000 + i));
    }
    const commands = (owner: typeof a) => JSON.parse(readFileSync(ownerFile(journalPath(home), owner), "utf8")).jobs.map((e: { command: string }) => e.command);
    expect(commands(a)).toEqual(Array.from({ length: 25 }, (_, k) => `a ${2 * k}`));
    expect(commands(b)).toEqual(Array.from({ length: 50 }, (_, k) => `b ${k}`));
  });

  test("the shared jobs.json of earlier versions is still reaped, then removed", async () => {
    const home = tempDir();
    const gone = Bun.spawn(["true"]);
    const goneStart = processStart(gone.pid) ?? "0";
    await gone.exited;
    const orphan = host.spawn(["sleep", "30"], { cwd: home });
    try {
      writeFileSync(join(home, "jobs.json"), JSON.stringify({ jobs: [{ job: { pid: orphan.pid!, start: processStart(orphan.pid!)! }, owner: { pid: gone.pid, start: goneStart }, command: "an old orphan" }] }));
      expect(await reapOrphans(journalPath(home), killGroup)).toEqual(["an old orphan"]);
      expect(alive(orphan.pid!)).toBe(false);
      expect(existsSync(join(home, "jobs.json"))).toBe(false);
    } finally {
      await orphan.stop();
    }
  });
});
