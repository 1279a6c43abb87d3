/**
 * The client under test for the MCP conformance suite (@modelcontextprotocol/conformance): the
 * suite starts its test server(s) for one scenario and runs this script with the server's URL as
 * the last argument, the scenario's name in MCP_CONFORMANCE_SCENARIO and, for some, the client
 * credentials it expects in MCP_CONFORMANCE_CONTEXT. This script is shiro as a user runs it:
 *
 * 1. a fresh HOME and SHIRO_HOME whose config names the server "conf" (`"required": true`, so a
 *    server shiro cannot reach ends the run with exit 2, which the suite sees);
 * 2. for an authorization scenario, `shiro mcp login conf` with a stand-in browser
 *    (spec/support/mcp/browser.ts) that follows the authorization server's redirect back to
 *    shiro's loopback callback;
 * 3. one headless turn (`shiro -p`) against the project's fake OpenAI-compatible server, scripted
 *    to call the tool the scenario's server offers, then to answer "done".
 *
 * The compiled binary is used (dist/shiro, or SHIRO_BIN). Run through scripts/mcp-conformance/run.ts
 * (docs/extending.md, "Checking against the MCP conformance suite").
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeServer } from "../../spec/support/fake-openai.ts";
import { mcpToolName } from "../../lib/mcp/tool-name.ts";
import { loopTurn } from "./loop.ts";
import { scenarioPlan, type ScenarioPlan } from "./scenarios.ts";

const root = join(import.meta.dir, "..", "..");
const bin = process.env.SHIRO_BIN ?? join(root, "dist", "shiro");
const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
if (!url || !/^https?:\/\//.test(url)) {
  console.error("usage: bun scripts/mcp-conformance/client.ts <server-url>   (MCP_CONFORMANCE_SCENARIO names the scenario)");
  process.exit(2);
}
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Record<string, string | undefined>;
const plan = scenarioPlan(scenario, context);
if (plan.unsupported) {
  console.error(`shiro does not support ${scenario}: ${plan.unsupported}`);
  process.exit(3);
}

const home = realpathSync(mkdtempSync(join(tmpdir(), "shiro-conformance-")));
const shiroHome = join(home, ".shiro-neko");
mkdirSync(shiroHome);
writeFileSync(join(shiroHome, "config.json"), JSON.stringify({ mcpServers: { conf: { url, allow: ["*"], required: true, ...(plan.oauth ? { oauth: plan.oauth } : {}) } } }, null, 2));

const fake = await startFakeServer({ replies: [] });
const env: Record<string, string> = {
  PATH: process.env.PATH ?? "",
  HOME: home,
  SHIRO_HOME: shiroHome,
  NO_COLOR: "1",
  SHIRO_CLIENT: "openai",
  SHIRO_CONTEXT_WINDOW: "1000000",
  SHIRO_SANDBOX: "off",
  SHIRO_MCP_TOKEN_STORE: "file",
  SHIRO_BASE_URL: fake.url,
  BROWSER: `${process.execPath} ${join(root, "spec", "support", "mcp", "browser.ts")}`,
  ...plan.env,
};

async function run(args: string[]): Promise<{ code: number; said: string }> {
  const child = Bun.spawn([bin, ...args], { cwd: home, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  // The suite keeps what this script prints (stdout.txt, stderr.txt): shiro's own words, labelled.
  console.log(`$ shiro ${args.join(" ")}   → exit ${code}`);
  if (stdout.trim()) console.log(stdout.trimEnd());
  if (stderr.trim()) console.error(`[shiro ${args[0]}] ${stderr.trimEnd()}`);
  return { code, said: stdout + stderr };
}

/** One headless turn whose model calls the scenario's tool, then says "done". */
async function turn(tool: ScenarioPlan["tool"]): Promise<{ code: number; said: string }> {
  fake.push(...(tool ? [{ toolCalls: [{ name: mcpToolName("conf", tool.name), input: tool.args }] }, { text: "done" }] : [{ text: "done" }]));
  const prompt = tool ? `Call the ${tool.name} tool.` : "Say done.";
  const result = plan.interactive ? await loopTurn(bin, env, home, prompt) : await run(["-p", prompt]);
  if (plan.interactive) console.log(`$ shiro (the loop, in a terminal)   → exit ${result.code}\n${result.said.trimEnd()}`);
  if (result.code === 0 && fake.pending() > 0) {
    console.error("the turn ended before the scripted tool call was answered");
    return { ...result, code: 1 };
  }
  return result;
}

const LOGIN = ["mcp", "login", "conf"];
let code = 0;
try {
  if (plan.login) code = (await run(LOGIN)).code;
  if (code === 0) {
    let result = await turn(plan.tool);
    // A session never opens a browser: when the server asked for more access during the turn
    // (step-up), shiro says to sign in again, and a user would: once.
    if (plan.login && result.code === 0 && result.said.includes(`run shiro ${LOGIN.join(" ")}`)) {
      code = (await run(LOGIN)).code;
      if (code === 0) result = await turn(plan.tool);
    }
    if (code === 0) code = result.code;
    if (fake.errors.length > 0) {
      console.error(`the fake model server rejected a request: ${fake.errors.join("; ")}`);
      code = 1;
    }
  }
} finally {
  await fake.close();
  rmSync(home, { recursive: true, force: true });
}
process.exit(code);
