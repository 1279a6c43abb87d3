/**
 * `bun run test`: builds the binary, runs every spec against it, and ends with the line CI
 * reads: `N passed, N failed, N skipped`. Skips are counted so that tests which stopped running
 * (a missing fixture, a tool not installed) show in the summary, and the reasons the skipping specs
 * gave (`SKIP <file>: <why>` lines) are repeated just above it. Extra arguments go to `bun test`
 * (e.g. a file filter).
 */
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const env = { ...process.env };
if (!env.SHIRO_BIN) {
  const build = Bun.spawnSync([process.execPath, join(root, "scripts", "build.ts")], { cwd: root, stdout: "inherit", stderr: "inherit" });
  if (build.exitCode !== 0) {
    console.log("0 passed, 1 failed, 0 skipped");
    process.exit(1);
  }
  env.SHIRO_BIN = join(root, "dist", "shiro");
}

const child = Bun.spawn([process.execPath, "test", ...process.argv.slice(2)], { cwd: root, env, stdout: "pipe", stderr: "pipe" });
let transcript = "";
async function pump(stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) {
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    const text = decoder.decode(chunk, { stream: true });
    transcript += text;
    sink.write(text);
  }
}
await Promise.all([pump(child.stdout, process.stdout), pump(child.stderr, process.stderr)]);
const code = await child.exited;

/** bun test's own count (` 12 pass`); the last one, in case a test printed a line of that shape. */
const count = (word: string) => Number([...transcript.matchAll(new RegExp(`^\\s*(\\d+) ${word}$`, "gm"))].at(-1)?.[1] ?? 0);
const passed = count("pass");
let failed = count("fail");
if (code !== 0 && failed === 0) failed = 1; // a crash or a load error is a failure even with no count
const skipped = count("skip") + count("todo"); // a todo does not run either
// Why specs skipped (a tool not installed, a missing fixture): each skipping spec says so once on
// stderr as `SKIP <file>: <why>` (spec/support/host-tools.ts); repeated here, just above the count,
// so the reason is not lost in the scroll-back of a long run.
const reasons = [...new Set(transcript.split("\n").filter((line) => line.startsWith("SKIP ")))];
if (reasons.length > 0) console.log(["", "Skipped here, and why:", ...reasons.map((line) => `  ${line.slice("SKIP ".length)}`)].join("\n"));
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(code === 0 && failed === 0 ? 0 : 1);
