/**
 * A server's resources, offered to the model as one tool per server that has them:
 * `mcp__<server>__read_resource`. Without a `uri` it lists the server's resources (and its
 * resource templates); with one it reads that resource. Text comes as it is; binary contents
 * become a note, as images from tools do. Gated like the server's tools: it asks unless the
 * server's `allow` lists `read_resource` or a rule says otherwise.
 */
import * as v from "valibot";
import { matchPattern } from "../permissions/match-pattern.ts";
import { defineTool, type AnyTool, type ToolContext } from "../tools/define.ts";
import { mcpToolName } from "./tool-name.ts";

export const RESOURCE_TOOL = "read_resource";

export type McpResourceInfo = { uri: string; name: string; title?: string; description?: string; mimeType?: string };
export type McpResourceTemplate = { uriTemplate: string; name: string; description?: string };
export type McpResourceContents = { uri: string; mimeType?: string; text?: string; blob?: string };

export type ResourceAccess = {
  list(signal: AbortSignal): Promise<{ resources: McpResourceInfo[]; templates: McpResourceTemplate[] }>;
  read(uri: string, signal: AbortSignal): Promise<McpResourceContents[]>;
};

export function resourceListText(server: string, listed: { resources: McpResourceInfo[]; templates: McpResourceTemplate[] }): string {
  const lines = listed.resources.map((r) => `${r.uri}  ${r.title ?? r.name}${r.mimeType ? ` (${r.mimeType})` : ""}${r.description ? `: ${r.description}` : ""}`);
  const templates = listed.templates.map((t) => `${t.uriTemplate}  ${t.name}${t.description ? `: ${t.description}` : ""}`);
  if (lines.length === 0 && templates.length === 0) return `The MCP server "${server}" lists no resources.`;
  return [...(lines.length ? [`Resources of "${server}":`, ...lines] : []), ...(templates.length ? ["Templates (fill in the {…} parts):", ...templates] : [])].join("\n");
}

export function resourceContentsText(contents: readonly McpResourceContents[]): string {
  return contents
    .map((c) => {
      if (typeof c.text === "string") return contents.length > 1 ? `[${c.uri}]\n${c.text}` : c.text;
      const bytes = typeof c.blob === "string" ? Math.floor((c.blob.length * 3) / 4) : 0;
      return `[binary resource ${c.uri} (${c.mimeType ?? "unknown type"}, ${bytes} bytes); not shown here]`;
    })
    .join("\n\n");
}

export function resourceTool(server: string, allow: readonly string[], access: (ctx: ToolContext) => Promise<ResourceAccess>): AnyTool {
  const allowed = allow.some((pattern) => matchPattern(pattern, RESOURCE_TOOL));
  return defineTool({
    name: mcpToolName(server, RESOURCE_TOOL),
    description: `Read a resource (a document, a record, a file) of the MCP server "${server}" by its URI. Without a uri, lists the server's resources and templates.`,
    schema: v.object({ uri: v.optional(v.string()) }),
    jsonSchema: { type: "object", properties: { uri: { type: "string", description: "the resource's URI, as listed" } } },
    mutates: false,
    subject: { kind: "text", of: (input) => (input as { uri?: string } | undefined)?.uri ?? "(list)" },
    defaultDecision: allowed ? "allow" : "ask",
    execute: async (input, ctx) => {
      const resources = await access(ctx);
      if (!input.uri) {
        const listed = await resources.list(ctx.signal);
        return { output: resourceListText(server, listed), summary: `${listed.resources.length} resources` };
      }
      const text = resourceContentsText(await resources.read(input.uri, ctx.signal));
      return { output: text || "(the resource is empty)", summary: input.uri };
    },
  });
}
