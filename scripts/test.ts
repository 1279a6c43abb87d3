/**
 * `bun run test`: builds the binary, runs every spec against it, and ends with the line CI
 * reads: `N passed, N failed`. Extra arguments go to `bun test` (e.g. a file filter).
 */
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const env = { ...process.env };
if (!env.SHIRO_BIN) {
  const build = Bun.spawnSync([process.execPath, join(root, "scripts", "build.ts")], { cwd: root, stdout: "inherit", stderr: "inherit" });
  if (build.exitCode !== 0) {
    console.log("0 passed, 1 failed");
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

const count = (word: string) => Number(transcript.match(new RegExp(`^\\s*(\\d+) ${word}$`, "m"))?.[1] ?? 0);
const passed = count("pass");
let failed = count("fail");
if (code !== 0 && failed === 0) failed = 1; // a crash or a load error is a failure even with no count
console.log(`${passed} passed, ${failed} failed`);
process.exit(code === 0 && failed === 0 ? 0 : 1);
