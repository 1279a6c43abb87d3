/**
 * `/mcp__<server>__<prompt> args…`, in the loop and in `shiro -p`: the typed words become the
 * prompt's arguments (lib/mcp/prompts.ts), the server gives its messages (`prompts/get`), and
 * those become the turn's user message: their text in order (labelled with their role when the
 * prompt has an assistant message too), an embedded resource attached as `@server:uri` would be,
 * an image or audio as a note (shiro sends the model text only), a resource link as its address.
 */
import type { McpManager } from "../mcp/index.ts";
import { findPromptCommand, promptArguments, promptHelpLines, serverWords, type McpPromptResult } from "../mcp/prompts.ts";
import type { AttachReport } from "../prompt/attach.ts";
import { resourceAttachment } from "../prompt/attach-resource.ts";
import { splitWords } from "../prompt/custom-commands.ts";

export type McpPromptTurn = { command: string; server: string; text: string; reports: AttachReport[] } | { command: string; error: string };

/**
 * What a typed line runs when it names one of the connected servers' prompts; undefined when it
 * names none (then it is whatever else it is). `unscanned` (text piped in) follows the messages.
 */
export async function mcpPromptTurn(line: string, mcp: McpManager | undefined, signal: AbortSignal, unscanned?: string): Promise<McpPromptTurn | undefined> {
  const found = mcp ? findPromptCommand(line, mcp.prompts()) : undefined;
  if (!mcp) return undefined;
  if (!found) return notAPrompt(line, mcp);
  const { entry } = found;
  const command = `/${entry.command}`;
  const parsed = promptArguments(entry, splitWords(found.words));
  if ("error" in parsed) return { command, error: parsed.error };
  let result: McpPromptResult;
  try {
    result = await mcp.getPrompt(entry.server, entry.prompt.name, parsed.args, signal);
  } catch (error) {
    const why = serverWords(error instanceof Error ? error.message : String(error)).replace(/^(MCP error -?\d+: )+/, "");
    return { command, error: `${command}: the MCP server "${entry.server}" did not give the prompt: ${why}` };
  }
  const { body, blocks, reports } = messagesText(entry.server, result);
  if (!body.trim() && blocks.length === 0) return { command, error: `${command}: the MCP server "${entry.server}" gave a prompt with no text; nothing was sent` };
  return { command, server: entry.server, text: [body, ...(unscanned ? [unscanned] : []), ...blocks].join("\n\n"), reports };
}

/** A line that starts with a configured server's `/mcp__<server>__` but names none of its prompts: why, in one line. */
function notAPrompt(line: string, mcp: McpManager): McpPromptTurn | undefined {
  const typed = /^\/(\S+)/.exec(line.trim())?.[1] ?? "";
  const server = mcp.names.find((name) => typed.toLowerCase().startsWith(`mcp__${name.toLowerCase()}__`));
  if (!server) return undefined;
  const command = `/${typed}`;
  const status = mcp.status().find((s) => s.name === server);
  if (status?.state !== "connected") return { command, error: `${command}: the MCP server "${server}" is not connected (${status?.state === "starting" ? "still starting; try again in a moment" : (status?.error ?? status?.state)}); /mcp shows the servers` };
  const own = mcp.prompts().filter((p) => p.server === server).map((p) => `/${p.command}`);
  return { command, error: `unknown command ${command}: the MCP server "${server}" has no such prompt${own.length ? ` (its prompts: ${own.join(", ")})` : " (it offers no prompts)"}` };
}

/** The connected servers' prompts as the loop's command list shows them: name (without its slash) and description. */
export function mcpPromptCommands(mcp: McpManager | undefined): { name: string; description: string }[] {
  return (mcp?.prompts() ?? []).map((p) => ({ name: p.command, description: serverWords(p.prompt.description ?? p.prompt.title ?? `a prompt of the MCP server "${p.server}"`) }));
}

/** `/help`'s section: the connected servers' prompts under each server. */
export function mcpPromptHelpLines(mcp: McpManager | undefined, width: number): string[] {
  return mcp ? promptHelpLines(mcp.prompts(), width) : [];
}

function messagesText(server: string, result: McpPromptResult): { body: string; blocks: string[]; reports: AttachReport[] } {
  const mixed = result.messages.some((m) => m.role !== "user");
  const parts: string[] = [];
  const blocks: string[] = [];
  const reports: AttachReport[] = [];
  for (const message of result.messages) {
    const content = message.content;
    let text: string;
    switch (content.type) {
      case "text":
        text = content.text;
        break;
      case "image":
      case "audio":
        text = `[${content.type} (${content.mimeType}) in the MCP prompt; not sent: shiro sends the model text only]`;
        break;
      case "resource": {
        const attached = resourceAttachment(`${server}:${content.resource.uri}`, [content.resource]);
        blocks.push(attached.block);
        reports.push(attached.report);
        text = `[attached below: ${server}:${content.resource.uri}]`;
        break;
      }
      case "resource_link":
        text = `[resource link: ${content.name} <${content.uri}>${content.mimeType ? ` ${content.mimeType}` : ""}]`;
        break;
      default:
        text = `[${(content as { type?: string }).type ?? "unknown"} content in the MCP prompt; not sent]`;
    }
    parts.push(mixed ? `${message.role === "user" ? "User" : "Assistant"}: ${text}` : text);
  }
  return { body: parts.join("\n\n"), blocks, reports };
}
