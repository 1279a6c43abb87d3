import pkg from "../package.json" with { type: "json" };
import type { Runtime } from "../lib/agent/runtime.ts";
import { withSecrets } from "./token-store.ts";
import { planMcpServers, startMcp, trustProject, untrustedNotice, withProjectServers, type Elicitor, type McpManager, type ProjectQuestion } from "../lib/mcp/index.ts";

/**
 * The session's MCP servers, started in the background: the user's own, and the project's
 * `.mcp.json` once trusted. `ask` puts the trust question to the user (the interactive loop,
 * before it takes the terminal); without it (headless) an untrusted file is not used, with one
 * notice. `elicit` puts a server's question to the user (lib/mcp/elicitation.ts); without it
 * shiro does not declare elicitation and servers do not ask. Resolves as soon as the servers are
 * starting, never waiting for them.
 */
export async function openMcp(
  runtime: Runtime,
  env: Record<string, string | undefined>,
  ask?: (question: ProjectQuestion) => Promise<boolean>,
  elicit?: Elicitor,
): Promise<{ mcp: McpManager | undefined; notices: string[] }> {
  const plan = planMcpServers({ config: runtime.config, home: runtime.home, root: runtime.workspace.root });
  const notices = [...plan.notices];
  let servers = plan.servers;
  if (plan.question) {
    if (ask && (await ask(plan.question))) {
      try {
        trustProject(runtime.home, runtime.workspace.root, plan.question.sha256);
      } catch (error) {
        notices.push(`could not remember the answer (${error instanceof Error ? error.message : String(error)}); shiro asks again next time.`);
      }
      servers = withProjectServers(servers, plan.question.servers, notices);
    } else notices.push(untrustedNotice(plan.question, !ask));
  }
  return { mcp: startMcp(servers, { root: runtime.workspace.root, home: runtime.home, ...withSecrets(env), env, version: pkg.version, ...(elicit ? { elicit } : {}) }), notices };
}

/**
 * Headless, once it has waited for its servers: the one line that ends the run when a server
 * marked `"required": true` is not connected (with its reason, e.g. the sign-in it needs), or
 * undefined.
 */
export function requiredServersMissing(mcp: McpManager | undefined, required: ReadonlySet<string>): string | undefined {
  const missing = (mcp?.status() ?? []).filter((s) => required.has(s.name) && s.state !== "connected");
  if (missing.length === 0) return undefined;
  return `required MCP ${missing.length === 1 ? "server" : "servers"} not available: ${missing.map((s) => `"${s.name}" (${s.error ?? s.state})`).join("; ")}`;
}

/** The names of the servers marked `"required": true` in the user's config. */
export function requiredServers(runtime: Runtime): Set<string> {
  return new Set(Object.entries(runtime.config.mcpServers ?? {}).filter(([, config]) => config.required === true).map(([name]) => name));
}

/**
 * The trust question, asked on the terminal in line mode before the loop starts: what the file
 * would run, and y/N. Anything but y or yes is no.
 */
export async function askProjectTrust(question: ProjectQuestion, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<boolean> {
  return askYesNo(
    [
      `This project has ${question.path}, which asks shiro to start these MCP servers:`,
      ...question.lines.map((line) => `  ${line}`),
      "They would run on this machine with your permissions, outside the sandbox.",
      ...(question.files.length > 0 ? [`Trusting it also trusts, as they are now, the workspace files they run: ${question.files.join(", ")}. shiro asks again when one changes (not when a file they load does).`] : []),
    ],
    "Trust this file and start them? (remembered until the file changes) [y/N] ",
    input,
    output,
  );
}

/**
 * A question asked on the terminal in line mode, before the loop takes it: the lines, then the
 * question. Anything but y or yes is no, and so is a terminal that went away.
 */
export async function askYesNo(lines: readonly string[], question: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<boolean> {
  output.write([...lines, ""].join("\n"));
  // Loaded here, not at start-up: only these questions need it.
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input, output });
  try {
    const answer = await rl.question(question);
    return /^\s*y(es)?\s*$/i.test(answer);
  } catch {
    return false; // the terminal went away
  } finally {
    rl.close();
  }
}
