// A separate process that races shiro's file tools, the way a command left running in the
// background would: it flips a name in the workspace between something inside and a symlink
// leading out, as fast as it can, until killed (SIGTERM), then prints how many flips it made.
//   bun symlink-flipper.ts dir   <ws> <name> <outside>   the folder <name> ↔ a link to <outside>
//   bun symlink-flipper.ts links <ws> <name> <outside> <inside>   a link to <inside> ↔ a link to <outside>
//   bun symlink-flipper.ts file  <ws> <name> <outside>   the file <name> ↔ a link to <outside>
// SIGUSR1 pauses it with the inside state in place (it prints "paused"), and resumes it ("running").
import { renameSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";

const [mode, ws, name, outside, inside] = process.argv.slice(2) as [string, string, string, string, string | undefined];
const at = join(ws, name);
const parked = join(dirname(at), `.${basename(at)}.parked`);
let flips = 0;
let stop = false;
let paused = false;
process.on("SIGTERM", () => (stop = true));
// SIGUSR1 pauses (the inside state stays in place, and "paused" is printed) or resumes ("running").
process.on("SIGUSR1", () => (paused = !paused));

const attempt = (step: () => void) => {
  try {
    step();
  } catch {}
};
/** Spins for up to ~20 µs: the flips land at every point of a tool's work, not only between calls. */
const jitter = () => {
  const until = performance.now() + Math.random() * 0.02;
  while (performance.now() < until);
};

function flipOnce() {
  if (mode === "links") {
    attempt(() => symlinkSync(inside!, `${at}.in`));
    attempt(() => renameSync(`${at}.in`, at));
    jitter();
    attempt(() => symlinkSync(outside, `${at}.out`));
    attempt(() => renameSync(`${at}.out`, at));
    jitter();
    return;
  }
  // dir and file: park the real thing, put the link in its place, then put it back.
  attempt(() => renameSync(at, parked));
  attempt(() => symlinkSync(outside, at));
  jitter();
  attempt(() => unlinkSync(at));
  try {
    renameSync(parked, at);
  } catch {
    // A tool made a new folder at <name> in the gap: that one goes, the parked one comes back.
    attempt(() => rmSync(at, { recursive: true, force: true }));
    attempt(() => renameSync(parked, at));
  }
  jitter();
}

// Yield to the event loop now and then so SIGTERM is seen.
async function main() {
  process.stdout.write("ready\n");
  let reported = false;
  while (!stop) {
    if (paused !== reported) {
      if (paused && mode === "links") {
        attempt(() => symlinkSync(inside!, `${at}.in`));
        attempt(() => renameSync(`${at}.in`, at));
      }
      process.stdout.write(paused ? "paused\n" : "running\n");
      reported = paused;
    }
    if (paused) {
      await Bun.sleep(1);
      continue;
    }
    for (let i = 0; i < 5; i++) {
      flipOnce();
      flips++;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  // Each flip ends with the real thing back in place.
  process.stdout.write(`flips ${flips}\n`);
  process.exit(0);
}
void main();

