// Helpers for the race specs: a flipper process (symlink-flipper.ts) started and stopped, and a
// snapshot of a folder to prove nothing in it changed.
import { lstatSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { join } from "node:path";

const FLIPPER = join(import.meta.dir, "symlink-flipper.ts");

export type Flipper = {
  /** Stops flipping with the inside state in place, until resume(). */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<number>;
};

/** Starts flipping (see symlink-flipper.ts for the modes); stop() ends it and answers how many flips it made. */
export async function startFlipper(mode: "dir" | "links" | "file", ws: string, name: string, outside: string, inside?: string): Promise<Flipper> {
  const proc = Bun.spawn(["bun", FLIPPER, mode, ws, name, outside, ...(inside ? [inside] : [])], { stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  let text = "";
  /** Reads until the flipper has said `word` once more than before. */
  const until = async (word: string) => {
    const count = text.split(`${word}\n`).length;
    while (text.split(`${word}\n`).length === count) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the flipper ended before it said ${word}`);
      text += new TextDecoder().decode(value);
    }
  };
  await until("ready");
  return {
    async pause() {
      proc.kill("SIGUSR1");
      await until("paused");
    },
    async resume() {
      proc.kill("SIGUSR1");
      await until("running");
    },
    async stop() {
      proc.kill("SIGTERM");
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      await proc.exited;
      return Number(/flips (\d+)/.exec(text)?.[1] ?? 0);
    },
  };
}

/** Every entry below `dir`: its path, kind, content or link text, and mode. Equal snapshots: nothing changed. */
export function snapshot(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const path = join(dir, rel, name);
    const stats = lstatSync(path);
    const mode = (stats.mode & 0o7777).toString(8);
    if (stats.isSymbolicLink()) out.push(`${rel}${name} -> ${readlinkSync(path)}`);
    else if (stats.isDirectory()) out.push(`${rel}${name}/ ${mode}`, ...snapshot(dir, `${rel}${name}/`));
    else out.push(`${rel}${name} ${mode} ${readFileSync(path, "utf8")}`);
  }
  return out;
}

/** Removes a race's folders at once: they hold hundreds of files, too many to leave for the end of the run's sweep. */
export function removeNow(...dirs: string[]): void {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
