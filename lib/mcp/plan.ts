import type { ConfigFile } from "../config/schema.ts";
import type { McpServers } from "../config/mcp-schema.ts";
import type { McpServerEntry } from "./manager.ts";
import { describeServers, readProjectMcp } from "./project-file.ts";
import { isProjectTrusted } from "./trust-store.ts";
import { filesServersRun, trustFingerprint } from "./trust-files.ts";

/**
 * The project's `.mcp.json` when it waits for the user's answer: what it would run, the workspace
 * files its servers run (`files`, trust-files.ts), and the fingerprint of all of it (`sha256`).
 */
export type ProjectQuestion = { path: string; sha256: string; servers: McpServers; lines: string[]; files: string[] };

export type McpPlan = {
  /** Servers to start now: the user's, then the project's if its file is trusted. */
  servers: McpServerEntry[];
  notices: string[];
  /** Set when the project has a `.mcp.json` that was never trusted with this content. */
  question?: ProjectQuestion;
};

/**
 * Which MCP servers a session may start. The user's own (`mcpServers` in their config) always;
 * the project's `.mcp.json` only if the user trusted that exact content before, and the workspace
 * files it names for its servers to run (a script, a module) as they were then, or trusts every
 * project's (`trustProjectMcp`). Otherwise the file comes back as a question: a cloned repository
 * must not start programs on its own. Reads files, starts nothing, never throws.
 */
export function planMcpServers(opts: { config: ConfigFile; home: string; root: string }): McpPlan {
  const servers: McpServerEntry[] = Object.entries(opts.config.mcpServers ?? {}).map(([name, config]) => ({ name, config, source: "config" }));
  const notices: string[] = [];
  const project = readProjectMcp(opts.root);
  if (project.status === "none") return { servers, notices };
  if (project.status === "invalid") {
    notices.push(`${project.path} cannot be used (${project.reason}); its MCP servers are not started.`);
    return { servers, notices };
  }
  if (Object.keys(project.servers).length === 0) return { servers, notices };
  const files = filesServersRun(opts.root, project.servers);
  const sha256 = trustFingerprint(opts.root, project.sha256, files);
  const trust = opts.config.trustProjectMcp === true ? { trusted: true } : isProjectTrusted(opts.home, opts.root, sha256);
  if ("notice" in trust && trust.notice) notices.push(trust.notice);
  if (!trust.trusted) return { servers, notices, question: { path: project.path, sha256, servers: project.servers, lines: describeServers(project.servers), files } };
  return { servers: withProjectServers(servers, project.servers, notices), notices };
}

/** The project's servers added to the user's; on a name both use, the user's own config wins (said once). */
export function withProjectServers(servers: readonly McpServerEntry[], project: McpServers, notices: string[]): McpServerEntry[] {
  const out = [...servers];
  for (const [name, config] of Object.entries(project)) {
    if (out.some((s) => s.name === name)) {
      notices.push(`MCP server "${name}" is in both your config and .mcp.json; yours is used.`);
      continue;
    }
    // A secret written into a shared file is no secret: it must come from the user's environment.
    const secret = "oauth" in config ? config.oauth?.clientSecret : undefined;
    if (secret !== undefined && !/^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(secret.trim())) {
      notices.push(`MCP server "${name}" in .mcp.json has its "oauth.clientSecret" written in the file; it is not started. Write it as "\${VARIABLE}" and set the variable.`);
      continue;
    }
    // A project file may start its servers once trusted, but not decide that their tools run
    // without asking: that is the user's call, in their own config or at the question.
    const { allow: _allow, ...asked } = config;
    out.push({ name, config: asked as typeof config, source: "project" });
  }
  return out;
}

/** The one line said when the project's servers are not started because nobody trusted the file. */
export function untrustedNotice(question: ProjectQuestion, headless: boolean): string {
  const count = Object.keys(question.servers).length;
  const what = `${question.path} defines ${count} MCP ${count === 1 ? "server" : "servers"} (${Object.keys(question.servers).join(", ")})`;
  return headless
    ? `${what}, not started: the file is not trusted. Run shiro here interactively once to answer, or set "trustProjectMcp": true in your config.`
    : `${what}, not started: you did not trust it. shiro asks again next time.`;
}
