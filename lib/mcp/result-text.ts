/**
 * An MCP tool result as the text the model reads. Text parts as they are; what the model cannot
 * be given as text (images, audio, binary resources) becomes a one-line note saying what it was;
 * resource links name the resource. Structured content is used only when there is no content.
 * The caller cuts the result like any tool's (lib/tools/define.ts). Pure.
 */
export type McpContentPart = { type: string; [key: string]: unknown };
export type McpCallResult = { content?: readonly McpContentPart[]; structuredContent?: unknown; isError?: boolean; toolResult?: unknown };

export function resultText(result: McpCallResult): string {
  const parts = (result.content ?? []).map(partText).filter((text) => text !== "");
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent, null, 2);
  if (parts.length === 0 && result.toolResult !== undefined) return typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult);
  return parts.join("\n");
}

function partText(part: McpContentPart): string {
  const str = (key: string) => (typeof part[key] === "string" ? (part[key] as string) : undefined);
  switch (part.type) {
    case "text":
      return str("text") ?? "";
    case "image":
    case "audio":
      return `[${part.type} (${str("mimeType") ?? "unknown type"}, ${sizeOf(str("data"))}) returned by the tool; not shown here]`;
    case "resource_link": {
      const label = str("title") ?? str("name") ?? "resource";
      const extra = [str("mimeType"), str("description")].filter(Boolean).join(" — ");
      return `[resource link: ${label} <${str("uri") ?? "?"}>${extra ? ` ${extra}` : ""}]`;
    }
    case "resource": {
      const resource = (part.resource ?? {}) as Record<string, unknown>;
      const uri = typeof resource.uri === "string" ? resource.uri : "?";
      if (typeof resource.text === "string") return `[resource <${uri}>]\n${resource.text}`;
      const mime = typeof resource.mimeType === "string" ? resource.mimeType : "binary";
      return `[resource <${uri}> (${mime}, ${sizeOf(typeof resource.blob === "string" ? resource.blob : undefined)}); not shown here]`;
    }
    default:
      return `[${part.type} content; not shown here]`;
  }
}

/** The decoded size of base64 data, for the note. */
function sizeOf(base64: string | undefined): string {
  if (!base64) return "size unknown";
  const bytes = Math.floor((base64.replace(/=+$/, "").length * 3) / 4);
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}
