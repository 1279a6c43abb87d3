import * as v from "valibot";
import { matchPattern } from "../permissions/match-pattern.ts";
import { defineTool, type AnyTool, type ToolContext } from "../tools/define.ts";
import type { McpToolInfo } from "./connect.ts";
import { mcpToolName } from "./tool-name.ts";

/** Longest subject (the arguments as JSON) shown in an approval and matched by rules. */
const MAX_SUBJECT_CHARS = 200;
/** Longest arguments shown in the approval question. */
const MAX_SHOWN_CHARS = 300;
/** A description past this is cut: some servers put a manual in it, and every request carries it. */
const MAX_DESCRIPTION_CHARS = 1_024;

/** Arguments are the server's to validate; shiro checks only that they are an object. */
const ArgumentsSchema = v.optional(v.record(v.string(), v.unknown()), {});

export type CallMcpTool = (tool: string, args: Record<string, unknown>, ctx: ToolContext) => Promise<{ output: string; summary: string }>;

/**
 * A server's tool in shiro's tool contract. Gated as an unknown program would be: it asks unless
 * the server's `allow` lists it or a permission rule says otherwise (`"mcp__github__*": "allow"`).
 * It is not marked as changing files (shiro cannot know); it is left out of read-only agents instead.
 * Its subject is the arguments as JSON, so a rule can match them.
 */
export function adaptMcpTool(server: string, info: McpToolInfo, allow: readonly string[], call: CallMcpTool): AnyTool {
  const name = mcpToolName(server, info.name);
  const allowed = allow.some((pattern) => matchPattern(pattern, info.name));
  const description = info.description.length > MAX_DESCRIPTION_CHARS ? info.description.slice(0, MAX_DESCRIPTION_CHARS - 1) + "…" : info.description;
  return defineTool({
    name,
    description: `${description || `The ${info.name} tool`} (from the MCP server "${server}")`,
    schema: ArgumentsSchema,
    jsonSchema: objectSchema(info.inputSchema),
    mutates: false,
    subject: { kind: "text", of: (input) => argumentsLine(input) },
    asks: (input) => ({ by: "mcp", verb: "call", what: `${server}/${info.name} ${argumentsLine(input, MAX_SHOWN_CHARS)}` }),
    defaultDecision: allowed ? "allow" : "ask",
    execute: (input, ctx) => call(info.name, input ?? {}, ctx),
  });
}

/** Providers require an object schema at the top; a server that sends something else gets an open object. */
function objectSchema(schema: Record<string, unknown>): Record<string, unknown> {
  if (schema && typeof schema === "object" && schema.type === "object") return schema;
  return { type: "object", properties: {}, additionalProperties: true };
}

function argumentsLine(input: unknown, max = MAX_SUBJECT_CHARS): string {
  const text = input === undefined ? "{}" : JSON.stringify(input) ?? "{}";
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}
