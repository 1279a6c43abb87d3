import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { acquireSession, sessionHolder } from "../../lib/sessions/ownership.ts";
import { lockPath, sessionsDir } from "../../lib/sessions/paths.ts";
import { isHolderAlive, selfHolder, type LivenessProbe } from "../../lib/fs/process-alive.ts";
import { sweepLeftovers } from "../../lib/sessions/sweep.ts";
import { tempDir } from "../support/cli.ts";

const children: Bun.Subprocess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** Starts a bun child that acquires the session and holds it until killed. */
async function holdInChild(home: string, id: string): Promise<Bun.Subprocess<"ignore", "pipe", "inherit">> {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "support", "hold-lock.ts"), home, id], { stdout: "pipe", stderr: "inherit" });
  children.push(child);
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  expect(new TextDecoder().decode(value)).toBe("held\n");
  return child;
}

/** A dead pid: a child that has already exited. */
async function deadPid(): Promise<number> {
  const child = Bun.spawn(["true"]);
  await child.exited;
  return child.pid;
}

test("a free session is acquired, released, and can be acquired again", () => {
  const home = tempDir();
  const id = Bun.randomUUIDv7();
  const first = acquireSession(home, id);
  expect(first.ok).toBe(true);
  expect(JSON.parse(readFileSync(lockPath(home, id), "utf8"))).toEqual(selfHolder());
  // The same process asking again is told it already holds it.
  expect(acquireSession(home, id)).toEqual({ ok: false, holderPid: process.pid });
  if (!first.ok) throw new Error("unreachable");
  first.release();
  first.release(); // idempotent
  expect(existsSync(lockPath(home, id))).toBe(false);
  const again = acquireSession(home, id);
  expect(again.ok).toBe(true);
  if (again.ok) again.release();
  expect(readdirSync(sessionsDir(home))).toEqual([]); // no temp files left
});

test("a session held by another live process is refused with its pid; once that process dies, the stale lock is taken over", async () => {
  const home = tempDir();
  const id = Bun.randomUUIDv7();
  const child = await holdInChild(home, id);
  expect(acquireSession(home, id)).toEqual({ ok: false, holderPid: child.pid });
  expect(sessionHolder(home, id)).toBe(child.pid);

  child.kill("SIGKILL");
  await child.exited;
  expect(existsSync(lockPath(home, id))).toBe(true); // kill -9 leaves the lock behind
  expect(sessionHolder(home, id)).toBeUndefined();
  const taken = acquireSession(home, id);
  expect(taken.ok).toBe(true);
  expect(JSON.parse(readFileSync(lockPath(home, id), "utf8")).pid).toBe(process.pid);
  if (taken.ok) taken.release();
});

test("a lock naming a process that is alive but is `sleep`, not shiro started then (pid reuse), is stale on Linux", async () => {
  if (process.platform !== "linux") return;
  const home = tempDir();
  const id = Bun.randomUUIDv7();
  const sleeper = Bun.spawn(["sleep", "5"]);
  children.push(sleeper);
  mkdirSync(sessionsDir(home), { recursive: true });
  // Started "an hour ago" according to the lock: not the process that now has this pid.
  writeFileSync(lockPath(home, id), JSON.stringify({ pid: sleeper.pid, startedAt: Date.now() - 3_600_000 }));
  expect(acquireSession(home, id).ok).toBe(true);
  // With the right start time the same live pid holds it.
  const other = Bun.randomUUIDv7();
  writeFileSync(lockPath(home, other), JSON.stringify({ pid: sleeper.pid, startedAt: Date.now() }));
  expect(acquireSession(home, other)).toEqual({ ok: false, holderPid: sleeper.pid });
});

test("garbage or a dead pid in a lock file is stale", async () => {
  const home = tempDir();
  mkdirSync(sessionsDir(home), { recursive: true });
  const a = Bun.randomUUIDv7();
  const b = Bun.randomUUIDv7();
  writeFileSync(lockPath(home, a), "");
  writeFileSync(lockPath(home, b), JSON.stringify({ pid: await deadPid(), startedAt: Date.now() }));
  expect(acquireSession(home, a).ok).toBe(true);
  expect(acquireSession(home, b).ok).toBe(true);
});

test("liveness: pid gone, started before boot, or a different start time all mean dead; EPERM means alive", () => {
  const now = Date.now();
  const probe = (over: Partial<LivenessProbe>): LivenessProbe => ({
    kill: () => {},
    bootTimeMs: () => now - 86_400_000,
    startTimeOf: () => undefined,
    self: { pid: 1, startedAt: now },
    ...over,
  });
  const holder = { pid: 4242, startedAt: now - 1000 };
  const esrch = () => {
    throw Object.assign(new Error("no such process"), { code: "ESRCH" });
  };
  const eperm = () => {
    throw Object.assign(new Error("not permitted"), { code: "EPERM" });
  };
  expect(isHolderAlive(holder, probe({}))).toBe(true);
  expect(isHolderAlive(holder, probe({ kill: esrch }))).toBe(false);
  expect(isHolderAlive(holder, probe({ kill: eperm }))).toBe(true);
  expect(isHolderAlive({ pid: 4242, startedAt: now - 60_000 }, probe({ bootTimeMs: () => now - 1000 }))).toBe(false); // lock from before a reboot
  expect(isHolderAlive(holder, probe({ startTimeOf: () => now - 500 }))).toBe(true);
  expect(isHolderAlive(holder, probe({ startTimeOf: () => now - 600_000 }))).toBe(false);
  // Our own pid: alive only if it is really us (same start time), not a previous process with the pid.
  expect(isHolderAlive({ pid: 1, startedAt: now }, probe({}))).toBe(true);
  expect(isHolderAlive({ pid: 1, startedAt: now - 60_000 }, probe({}))).toBe(false);
});

test("two processes racing for the same stale lock: exactly one wins", async () => {
  const home = tempDir();
  const id = Bun.randomUUIDv7();
  mkdirSync(sessionsDir(home), { recursive: true });
  writeFileSync(lockPath(home, id), JSON.stringify({ pid: await deadPid(), startedAt: Date.now() }));
  const script = join(import.meta.dir, "support", "hold-lock.ts");
  const racers = Array.from({ length: 6 }, () => Bun.spawn([process.execPath, script, home, id], { stdout: "pipe" }));
  children.push(...racers);
  const firstLines = await Promise.all(
    racers.map(async (child) => {
      const reader = child.stdout.getReader();
      const { value } = await reader.read();
      return new TextDecoder().decode(value).trim();
    }),
  );
  expect(firstLines.filter((line) => line === "held")).toHaveLength(1);
  const winner = racers[firstLines.indexOf("held")]!;
  for (const line of firstLines) if (line !== "held") expect(line).toBe(`busy ${winner.pid}`);
});

test("leftovers of a killed writer are swept; a live process's and session files are not", async () => {
  const home = tempDir();
  const dir = sessionsDir(home);
  mkdirSync(dir, { recursive: true });
  const id = Bun.randomUUIDv7();
  const dead = await deadPid();
  const keep = [`${id}.json`, `.${id}.json.${process.pid}.${Date.now()}.0.tmp`, `${id}.json.corrupt-2026-01-01T00-00-00-000Z`];
  const gone = [`.${id}.json.${dead}.${Date.now()}.3.tmp`, `${id}.lock.${dead}.${Date.now()}.abc123.tmp`, `${Bun.randomUUIDv7()}.lock`];
  for (const name of keep) writeFileSync(join(dir, name), "x");
  for (const name of gone) writeFileSync(join(dir, name), name.endsWith(".lock") ? JSON.stringify({ pid: dead, startedAt: Date.now() }) : "x");
  expect(sweepLeftovers(home)).toBe(3);
  expect(readdirSync(dir).sort()).toEqual([...keep].sort());
});

test("the sweep removes an old undo journal whose session is gone, and keeps the others", () => {
  const home = tempDir();
  const dir = sessionsDir(home);
  const kept = Bun.randomUUIDv7();
  const young = Bun.randomUUIDv7();
  const orphan = Bun.randomUUIDv7();
  for (const id of [kept, young, orphan]) mkdirSync(join(dir, `${id}.undo`, "blobs"), { recursive: true });
  writeFileSync(join(dir, `${kept}.json`), "{}");
  const old = new Date(Date.now() - 60 * 60_000);
  for (const id of [kept, orphan]) utimesSync(join(dir, `${id}.undo`), old, old);
  expect(sweepLeftovers(home)).toBe(1);
  expect(readdirSync(dir).sort()).toEqual([`${kept}.json`, `${kept}.undo`, `${young}.undo`].sort());
});
