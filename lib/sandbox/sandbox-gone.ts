import { readFileSync } from "node:fs";

/**
 * bubblewrap's process and its children (the sandbox's first process, whose end takes every
 * other process of the sandbox's PID namespace with it), read from /proc before it is killed.
 */
export function sandboxProcesses(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    return [pid, ...children];
  } catch {
    return [pid];
  }
}

/**
 * Waits (blocking, at most `ms`) until each of `pids` has ended: gone, or a zombie. A PID
 * namespace's first process becomes a zombie only once every process in it has ended, so after
 * this nothing in the sandbox can still write. Used once, as a session ends, before the last git check.
 */
export function waitUntilEnded(pids: readonly number[], ms = 500): void {
  const until = Date.now() + ms;
  while (Date.now() < until && pids.some(running)) Bun.sleepSync(2);
}

function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX] /s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}
