import { readFileSync } from "node:fs";
import { uptime } from "node:os";

/** Who holds a lock: a process id and when that process started (epoch ms). */
export type Holder = { pid: number; startedAt: number };

/** Lock start times and /proc start times differ by start-up time and /proc's 1 s boot clock. */
const START_TOLERANCE_MS = 5_000;

export type LivenessProbe = {
  /** process.kill(pid, 0): throws ESRCH when there is no such process. */
  kill: (pid: number, signal: 0) => void;
  /** When the machine booted, epoch ms. */
  bootTimeMs: () => number;
  /** When process `pid` started, epoch ms, where the platform tells (Linux /proc); else undefined. */
  startTimeOf: (pid: number) => number | undefined;
  /** This process. */
  self: Holder;
};

/** This process as a lock holder. Stable for the life of the process. */
export function selfHolder(): Holder {
  return { pid: process.pid, startedAt: Math.round(performance.timeOrigin) };
}

export const systemProbe: LivenessProbe = {
  kill: (pid, signal) => void process.kill(pid, signal),
  bootTimeMs: () => Date.now() - uptime() * 1000,
  startTimeOf: linuxStartTime,
  self: selfHolder(),
};

/**
 * Whether the process that wrote a lock is still running. A pid alone is not enough: pids are
 * reused, and a lock left by a crash before a reboot names a pid that some system daemon may
 * well have now. So a holder is dead when its pid is gone, when it started before the last
 * boot, or when the process now using that pid started at a different time (Linux).
 * A pid we may not signal (EPERM) exists, and counts as alive.
 */
export function isHolderAlive(holder: Holder, probe: LivenessProbe = systemProbe): boolean {
  if (holder.pid === probe.self.pid) return Math.abs(holder.startedAt - probe.self.startedAt) < 1;
  if (holder.startedAt < probe.bootTimeMs() - START_TOLERANCE_MS) return false;
  if (!pidExists(holder.pid, probe)) return false;
  const started = probe.startTimeOf(holder.pid);
  return started === undefined || Math.abs(started - holder.startedAt) < START_TOLERANCE_MS;
}

/** Whether some process has this pid (not necessarily the one that wrote a file). EPERM: it exists. */
export function pidExists(pid: number, probe: LivenessProbe = systemProbe): boolean {
  try {
    probe.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

let linuxClock: { bootMs: number; ticksPerSecond: number } | null | undefined;

function linuxStartTime(pid: number): number | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    if (linuxClock === undefined) {
      const btime = /^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1];
      // USER_HZ is 100 on every mainstream Linux build; /proc reports start times in it.
      linuxClock = btime ? { bootMs: Number(btime) * 1000, ticksPerSecond: 100 } : null;
    }
    if (!linuxClock) return undefined;
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22 (starttime); the command name in field 2 may contain spaces, so count from ")".
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    return Number.isFinite(ticks) ? linuxClock.bootMs + (ticks / linuxClock.ticksPerSecond) * 1000 : undefined;
  } catch {
    return undefined;
  }
}
