/**
 * A prompt's attachments, both kinds: `@path` files (lib/prompt/attach.ts) and `@server:uri`
 * resources of the session's MCP servers, read from the server (waiting for one still starting)
 * and attached after the files. A mention is a resource when the word before its first `:` is a
 * configured server's name; anything else stays a path. A resource that cannot be read is one
 * refused line, and the prompt is sent without it (as a file that cannot be attached is).
 */
import type { McpManager } from "../mcp/index.ts";
import { serverWords } from "../mcp/prompts.ts";
import { attachMentions, type AttachReport } from "../prompt/attach.ts";
import type { AttachImages } from "../prompt/attach-image.ts";
import { resourceAttachment, resourceRefused } from "../prompt/attach-resource.ts";
import type { Where } from "../fs/workspace.ts";

/** How long reading one resource may take before the prompt goes without it. */
export const RESOURCE_READ_MS = 30_000;
const MENTION = /(^|[\s(])@([A-Za-z0-9_-]+):(\S+)/g;
/** Punctuation a sentence puts after a mention (`see @docs:docs://guide, then…`). */
const TRAILING_PUNCTUATION = /[.,;!?)\]}"'`]+$/;

export type ResourceMention = { server: string; uri: string; label: string };

/** The `@server:uri` mentions of a prompt whose server is one of `servers`, each once, in order. */
export function resourceMentions(prompt: string, servers: readonly string[]): ResourceMention[] {
  const found = new Map<string, ResourceMention>();
  for (const match of prompt.matchAll(MENTION)) {
    const server = match[2]!;
    const uri = match[3]!.replace(TRAILING_PUNCTUATION, "");
    if (!servers.includes(server) || !uri) continue;
    const label = `${server}:${uri}`;
    if (!found.has(label)) found.set(label, { server, uri, label });
  }
  return [...found.values()];
}

/** The prompt with its files and its servers' resources attached, and one report for each; `typed`: what of it the user typed (attachMentions). */
export async function attachAll(prompt: string, where: Where, mcp: McpManager | undefined, opts: { unscanned?: string; signal: AbortSignal; images?: AttachImages; typed?: string }): Promise<{ text: string; reports: AttachReport[] }> {
  const servers = mcp?.names ?? [];
  const isResource = (mention: string) => servers.includes(mention.split(":")[0]!) && mention.includes(":");
  const files = await attachMentions(prompt, where, { ...(opts.unscanned ? { unscanned: opts.unscanned } : {}), ...(opts.images ? { images: opts.images } : {}), ...(opts.typed !== undefined ? { typed: opts.typed } : {}), others: isResource });
  const mentions = mcp ? resourceMentions(prompt, servers) : [];
  if (mentions.length === 0) return files;
  const reports = [...files.reports];
  const blocks: string[] = [];
  for (const mention of mentions) {
    const signal = AbortSignal.any([opts.signal, AbortSignal.timeout(RESOURCE_READ_MS)]);
    try {
      const attached = resourceAttachment(mention.label, await mcp!.readResource(mention.server, mention.uri, signal));
      reports.push(attached.report);
      blocks.push(attached.block);
    } catch (error) {
      const why = signal.aborted && !opts.signal.aborted ? `no answer within ${RESOURCE_READ_MS / 1000} s` : oneLine(error instanceof Error ? error.message : String(error));
      reports.push(resourceRefused(mention.label, why));
    }
  }
  return { text: [files.text, ...blocks].join("\n\n"), reports };
}

/** One line, without the SDK's "MCP error -32603: " prefixes (the server's own words are the reason). */
function oneLine(text: string): string {
  const flat = serverWords(text).replace(/^(MCP error -?\d+: )+/, "");
  return flat.length > 200 ? flat.slice(0, 199) + "…" : flat;
}
