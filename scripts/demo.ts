/**
 * `bun run demo`: shiro working offline. Builds the binary, starts the scripted fake model on
 * 127.0.0.1, and runs `dist/shiro -p` in a throwaway workspace where the "model" lists the
 * files, reads one, fixes a bug with edit_file and runs the test with bash. No key, no network.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeServer } from "../spec/support/fake-openai.ts";

const root = join(import.meta.dir, "..");
const bin = process.env.SHIRO_BIN ?? join(root, "dist", "shiro");
if (!process.env.SHIRO_BIN) {
  const build = Bun.spawnSync([process.execPath, join(root, "scripts", "build.ts")], { stdout: "inherit", stderr: "inherit" });
  if (build.exitCode !== 0) process.exit(1);
}

const work = realpathSync(mkdtempSync(join(tmpdir(), "shiro-demo-")));
const home = realpathSync(mkdtempSync(join(tmpdir(), "shiro-demo-home-")));
writeFileSync(join(work, "add.mjs"), "export function add(a, b) {\n  return a - b;\n}\n");
writeFileSync(
  join(work, "add.test.mjs"),
  'import { add } from "./add.mjs";\nif (add(2, 3) !== 5) { console.error("FAIL add(2, 3) =", add(2, 3)); process.exit(1); }\nconsole.log("ok add(2, 3) = 5");\n',
);

// In the mode of a plain OpenAI-compatible server: shiro asks it about the model's context window
// (as it asks any server on this machine), and it answers like one.
const server = await startFakeServer({
  vendor: "openai",
  replies: [
    { text: "Let me look at the project.", toolCalls: [{ name: "list_dir", input: { path: "." } }] },
    { toolCalls: [{ name: "read_file", input: { path: "add.mjs" } }] },
    { text: "add() subtracts. Fixing it.", toolCalls: [{ name: "edit_file", input: { path: "add.mjs", oldString: "return a - b;", newString: "return a + b;" } }] },
    { toolCalls: [{ name: "bash", input: { command: "node add.test.mjs" } }] },
    { text: "Fixed: add() used `-` instead of `+`. The test now passes." },
  ],
});

console.log(`demo workspace: ${work}`);
console.log(`scripted model: ${server.url} (a fake OpenAI-compatible server; no key, no network)\n`);
console.log(`$ shiro -p "the add test fails, fix it" --yolo\n`);

const child = Bun.spawn([bin, "-p", "the add test fails, fix it", "--yolo"], {
  cwd: work,
  env: { PATH: process.env.PATH ?? "", HOME: home, SHIRO_HOME: join(home, ".shiro-neko"), SHIRO_BASE_URL: server.url, SHIRO_MODEL: "demo-model" },
  stdout: "inherit",
  stderr: "inherit",
});
const code = await child.exited;
await server.close();

const fixed = readFileSync(join(work, "add.mjs"), "utf8").includes("a + b");
const clean = server.errors.length === 0 && server.pending() === 0;
console.log(`\nexit code ${code}; add.mjs fixed: ${fixed ? "yes" : "no"}; requests: ${server.requests.length}; protocol errors: ${server.errors.length}`);
for (const error of server.errors) console.log(`  server error: ${error}`);
rmSync(work, { recursive: true, force: true });
rmSync(home, { recursive: true, force: true });
process.exit(code === 0 && fixed && clean ? 0 : 1);
