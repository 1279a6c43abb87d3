import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { defineTool, runTool, toolJsonSchema, type AnyTool } from "../tools/define.ts";

/** Past either, the MCP tools are not offered one by one but through mcp_search and mcp_call. */
export const DIRECT_MAX_TOOLS = 20;
export const DIRECT_MAX_SCHEMA_BYTES = 8 * 1024;
/** How many tools one search returns when the model does not say. */
const DEFAULT_SEARCH_LIMIT = 5;

/** The bytes the tools' definitions add to every request: name, description and input schema as JSON. */
export function schemaBytes(tools: readonly AnyTool[]): number {
  return tools.reduce((sum, tool) => sum + JSON.stringify({ name: tool.name, description: tool.description, parameters: toolJsonSchema(tool) }).length, 0);
}

export function overBudget(tools: readonly AnyTool[]): boolean {
  return tools.length > DIRECT_MAX_TOOLS || schemaBytes(tools) > DIRECT_MAX_SCHEMA_BYTES;
}

export type LazySource = {
  /** The MCP tools connected now. */
  tools(): readonly AnyTool[];
  /** One line on servers still starting or failed, for a search that finds nothing; "" when all are up. */
  pending(): string;
};

/**
 * The two tools that stand for many: their names and descriptions never change during a session
 * (the configured server names are known at its start), so requests stay small and their prefix
 * cacheable however many tools the servers bring or when they connect.
 */
export function lazyMcpTools(servers: readonly string[], source: LazySource): AnyTool[] {
  const find = (name: string) => source.tools().find((tool) => tool.name === name);
  const search = defineTool({
    name: "mcp_search",
    description:
      `Search the tools of the MCP servers (${servers.join(", ")}) by words; returns matching tools with their input schemas. ` +
      "Call one with mcp_call. An empty query lists every tool's name.",
    schema: v.object({
      query: v.string(),
      limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50))),
    }),
    mutates: false,
    subject: { kind: "text", of: (input) => input.query },
    defaultDecision: "allow",
    execute: async ({ query, limit }) => {
      const tools = source.tools();
      const pending = source.pending();
      if (query.trim() === "") {
        const names = tools.map((tool) => tool.name).join("\n");
        return { output: [names || "No MCP tools are connected.", pending].filter(Boolean).join("\n"), summary: `${tools.length} tools` };
      }
      const found = rankTools(tools, query).slice(0, limit ?? DEFAULT_SEARCH_LIMIT);
      if (found.length === 0) return { output: [`No MCP tool matches "${query}". Try other words, or an empty query to list them all.`, pending].filter(Boolean).join("\n"), summary: "no match" };
      const output = found.map((tool) => JSON.stringify({ name: tool.name, description: tool.description, inputSchema: toolJsonSchema(tool) })).join("\n");
      return { output, summary: `${found.length} ${found.length === 1 ? "tool" : "tools"}` };
    },
  });
  const call = defineTool({
    name: "mcp_call",
    description: "Call an MCP tool found with mcp_search: its full name (mcp__<server>__<tool>) and its arguments as an object.",
    schema: v.object({ name: v.string(), arguments: v.optional(v.record(v.string(), v.unknown())) }),
    mutates: false,
    subject: { kind: "text", of: (input) => input.name },
    defaultDecision: "ask",
    // Permissions judge the tool it calls, with that tool's arguments.
    standsFor: (input) => {
      const named = input && typeof input === "object" ? (input as { name?: unknown; arguments?: unknown }) : {};
      const tool = typeof named.name === "string" ? find(named.name) : undefined;
      return tool ? { tool, input: named.arguments ?? {} } : undefined;
    },
    execute: async (input, ctx) => {
      const tool = find(input.name);
      if (!tool) {
        const pending = source.pending();
        throw new ToolError(`mcp_call: no MCP tool is named "${input.name}". Find the right name with mcp_search.${pending ? ` ${pending}` : ""}`);
      }
      return runTool(tool, input.arguments ?? {}, ctx);
    },
  });
  return [search, call];
}

/** Tools by how many of the query's words their name and description contain (the name counts double); ties keep the servers' order. */
function rankTools(tools: readonly AnyTool[], query: string): AnyTool[] {
  const words = query.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const scored = tools.map((tool, index) => {
    const name = tool.name.toLowerCase();
    const description = tool.description.toLowerCase();
    const score = words.reduce((sum, word) => sum + (name.includes(word) ? 2 : 0) + (description.includes(word) ? 1 : 0), 0);
    return { tool, index, score };
  });
  return scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score || a.index - b.index).map((s) => s.tool);
}
