import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { ShiroError } from "../../lib/errors.ts";
import { withFileLock } from "../../lib/fs/lock.ts";
import { selfHolder } from "../../lib/fs/process-alive.ts";
import { tempDir } from "../support/cli.ts";
import { freshStore, readStoreFile } from "./support/memory.ts";

const child = join(import.meta.dir, "support", "remember-child.ts");

test("8 processes remembering 10 notes each at the same time: all 80 are kept, each recalled once", async () => {
  const { home, projectRoot, store } = freshStore();
  const go = join(tempDir(), "go");
  const procs = Array.from({ length: 8 }, (_, p) =>
    Bun.spawn([process.execPath, child, home, projectRoot, go, `proc${p}`, "10"], { stdout: "pipe", stderr: "pipe" }),
  );
  await Bun.sleep(200); // let every child reach the start line
  writeFileSync(go, "");
  const codes = await Promise.all(procs.map((p) => p.exited));
  const errors = await Promise.all(procs.map((p) => new Response(p.stderr).text()));
  expect(errors.filter(Boolean)).toEqual([]);
  expect(codes).toEqual(Array(8).fill(0));
  const entries = readStoreFile(store.path).entries;
  expect(entries).toHaveLength(80);
  expect(new Set(entries.map((e) => e.text)).size).toBe(80);
  for (let p = 0; p < 8; p++) for (let i = 0; i < 10; i++) expect(entries.some((e) => e.text === `proc${p} fact number ${i}`)).toBe(true);
  // Each child's recall incremented its own ten notes exactly once: no lost read-modify-write.
  expect(entries.every((e) => e.hits === 1)).toBe(true);
  // No lock or temp file is left behind.
  expect(readdirSync(dirname(store.path))).toEqual([store.path.split("/").pop()!]);
}, 30_000);

test("a lock left by a dead process is taken over at once", async () => {
  const dir = tempDir();
  const lock = join(dir, "m.json.lock");
  const dead = Bun.spawnSync([process.execPath, "-e", "0"]).pid;
  writeFileSync(lock, JSON.stringify({ pid: dead, startedAt: Date.now(), host: hostname(), token: "old" }));
  const t0 = performance.now();
  expect(await withFileLock(lock, () => "ran", { waitMs: 2000 })).toBe("ran");
  expect(performance.now() - t0).toBeLessThan(1000);
  expect(existsSync(lock)).toBe(false);
  expect(readdirSync(dir)).toEqual([]);
});

test("a lock whose pid now belongs to another process (pid reuse) is taken over at once on Linux", async () => {
  if (process.platform !== "linux") return;
  const dir = tempDir();
  const lock = join(dir, "m.json.lock");
  const sleeper = Bun.spawn(["sleep", "5"]);
  try {
    // The lock's writer started "an hour ago": not the `sleep` that has its pid now.
    writeFileSync(lock, JSON.stringify({ pid: sleeper.pid, startedAt: Date.now() - 3_600_000, host: hostname(), token: "old" }));
    const t0 = performance.now();
    expect(await withFileLock(lock, () => "ran", { waitMs: 2000 })).toBe("ran");
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(readdirSync(dir)).toEqual([]);
  } finally {
    sleeper.kill("SIGKILL");
  }
});

test("a lock older than the stale timeout is taken over even if its holder looks alive", async () => {
  const dir = tempDir();
  const lock = join(dir, "m.json.lock");
  writeFileSync(lock, JSON.stringify({ ...selfHolder(), host: "another-host", token: "old" }));
  const old = new Date(Date.now() - 60_000);
  utimesSync(lock, old, old);
  expect(await withFileLock(lock, () => "ran", { staleMs: 1000, waitMs: 3000 })).toBe("ran");
});

test("a live, fresh lock is waited for, and waiting too long fails naming the lock file", async () => {
  const dir = tempDir();
  const lock = join(dir, "m.json.lock");
  writeFileSync(lock, JSON.stringify({ ...selfHolder(), host: hostname(), token: "held" }));
  const err = await withFileLock(lock, () => "ran", { staleMs: 60_000, waitMs: 150 }).catch((e: Error) => e);
  expect(err).toBeInstanceOf(ShiroError);
  expect((err as ShiroError).code).toBe("state");
  expect((err as Error).message).toContain(lock);
  expect((err as Error).message).toContain("delete that file");
  expect(existsSync(lock)).toBe(true); // not ours: left alone
});

test("holders run one at a time within a process too", async () => {
  const dir = tempDir();
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, "m.json.lock");
  let inside = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: 10 }, () =>
      withFileLock(lock, async () => {
        most = Math.max(most, ++inside);
        await Bun.sleep(3);
        inside--;
      }),
    ),
  );
  expect(most).toBe(1);
});
