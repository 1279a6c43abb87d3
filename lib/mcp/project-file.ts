import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { isStdio, ProjectMcpFile, type McpServers } from "../config/mcp-schema.ts";
import { issueWords } from "../config/field-path.ts";

export const PROJECT_MCP_FILE = ".mcp.json";

/** What the project's `.mcp.json` holds, with the hash of its exact bytes (trust is given to that content). */
export type ProjectMcp =
  | { status: "none" }
  | { status: "invalid"; path: string; reason: string }
  | { status: "found"; path: string; sha256: string; servers: McpServers };

/**
 * Reads `<root>/.mcp.json`. A file that is not JSON or not in the expected shape is reported
 * (`invalid`), never changed or moved: it belongs to the project. Never throws.
 */
export function readProjectMcp(root: string): ProjectMcp {
  const path = join(root, PROJECT_MCP_FILE);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { status: "none" };
    return { status: "invalid", path, reason: error instanceof Error ? error.message : String(error) };
  }
  const sha256 = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
  try {
    const parsed = v.safeParse(ProjectMcpFile, JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)));
    if (!parsed.success) {
      return { status: "invalid", path, reason: issueWords(ProjectMcpFile, parsed.issues[0]).replace(/\s+/g, " ").slice(0, 300) };
    }
    return { status: "found", path, sha256, servers: parsed.output.mcpServers };
  } catch (error) {
    return { status: "invalid", path, reason: (error instanceof Error ? error.message : String(error)).slice(0, 300) };
  }
}

/**
 * What each server of the file would do, one line each, for the trust question: the program and
 * its arguments, or the URL and the names of the headers it sends; the variables of your
 * environment it would be given (`${VAR}` anywhere in its entry); and that any `allow` list in the
 * file is not used.
 */
export function describeServers(servers: McpServers): string[] {
  return Object.entries(servers).map(([name, config]) => {
    const parts: string[] = [];
    if (!isStdio(config)) {
      const headers = Object.keys(config.headers ?? {});
      parts.push(`${name}: connects to ${config.url}${headers.length ? ` (sends headers ${headers.join(", ")})` : ""}`);
    } else {
      const words = [config.command, ...(config.args ?? [])].map(shellQuote).join(" ");
      const env = Object.keys(config.env ?? {});
      parts.push(`${name}: runs ${words}${config.cwd ? ` in ${config.cwd}` : ""}${env.length ? ` (sets ${env.join(", ")})` : ""}`);
    }
    const variables = [...new Set([...JSON.stringify(config).matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!))];
    if (variables.length) parts.push(`gets your ${variables.join(", ")}`);
    if ("allow" in config && config.allow?.length) parts.push(`its "allow" list is ignored: its tools ask`);
    return parts.join("; ");
  });
}

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
