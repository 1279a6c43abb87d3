/** The longest tool name every provider takes (OpenAI's limit). */
const MAX_TOOL_NAME = 64;

/**
 * The name the model sees for a server's tool: `mcp__<server>__<tool>`, with characters providers
 * refuse replaced by `_` and cut to 64. Server names are already restricted by the config schema.
 */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, "_")}`.slice(0, MAX_TOOL_NAME);
}
