/**
 * `bun scripts/mcp-conformance/run.ts [scenario…]`: runs the client scenarios of the MCP
 * conformance suite (@modelcontextprotocol/conformance, fetched by `bunx`, so this needs the
 * network once) against shiro through client.ts, one after another, and prints a table. Without
 * arguments, every client scenario the suite lists. Builds dist/shiro first unless SHIRO_BIN is
 * set. Exits 1 when a scenario failed. A developer tool: `bun run test` never runs it.
 */
import { join } from "node:path";

/** The suite's version the table in docs/extending.md was made with. */
const SUITE = "@modelcontextprotocol/conformance@0.1.16";
const root = join(import.meta.dir, "..", "..");
// The suite's build uses fs.globSync (Node 22): run it on Bun, whatever Node is installed.
const suite = [process.execPath, "x", "--bun", SUITE];

if (!process.env.SHIRO_BIN) {
  const build = Bun.spawnSync([process.execPath, join(root, "scripts", "build.ts")], { stdout: "ignore", stderr: "inherit" });
  if (build.exitCode !== 0) process.exit(1);
}

let scenarios = process.argv.slice(2);
if (scenarios.length === 0) {
  const listed = Bun.spawnSync([...suite, "list", "--client"], { stdout: "pipe", stderr: "inherit" });
  const text = listed.stdout.toString();
  scenarios = [...text.slice(text.indexOf("Client scenarios")).matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
  if (scenarios.length === 0) {
    console.error(`could not list the client scenarios of ${SUITE}`);
    process.exit(1);
  }
}

const command = `${process.execPath} ${join(import.meta.dir, "client.ts")}`;
const rows: string[][] = [];
let failed = 0;
for (const scenario of scenarios) {
  const child = Bun.spawn([...suite, "client", "--command", command, "--scenario", scenario, "--timeout", "90000"], { stdout: "pipe", stderr: "pipe", env: process.env });
  const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  const text = (out + err).replace(/\x1b\[[0-9;]*m/g, "");
  const checks = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(text);
  const passed = /OVERALL: PASSED/.test(text);
  if (!passed) failed++;
  const why = passed ? "" : (/^shiro does not support .*$/m.exec(text)?.[0] ?? text.split("\n").filter((l) => /FAILURE|Error:|CLIENT /.test(l)).slice(0, 2).join(" / "));
  rows.push([scenario, passed ? "pass" : "FAIL", checks ? `${checks[1]}/${checks[2]}${checks[4] !== "0" ? `, ${checks[4]} warnings` : ""}` : "-", why.trim().slice(0, 160)]);
  console.error(`${scenario}: ${passed ? "pass" : "FAIL"}`);
}

console.log(`| scenario | result | checks | why not |\n|---|---|---|---|`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
console.log(`\n${SUITE}, ${new Date().toISOString().slice(0, 10)}: ${rows.length - failed} of ${rows.length} passed.`);
process.exit(failed > 0 ? 1 : 0);
