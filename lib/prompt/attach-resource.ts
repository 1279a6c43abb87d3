/**
 * An MCP server's resource attached to a prompt (`@server:uri`), in the same block format as an
 * `@path` file (attach.ts), so the prompt as typed is recovered the same way. Text is bounded as
 * a file is (ATTACH_MAX_LINES, ATTACH_MAX_CHARS, with a note saying what was left out); binary
 * contents are never sent as bytes: a note says their type and size. Pure.
 */
import { clipLine, plural, splitLines } from "../text/lines.ts";
import { MAX_LINE_CHARS } from "../tools/read-file.ts";
import { ATTACH_MAX_CHARS, ATTACH_MAX_LINES, attachmentBlock, type AttachReport } from "./attach.ts";

/** One part of a resource as the server sends it: text, or base64 `blob`. */
export type ResourcePart = { uri: string; mimeType?: string; text?: string; blob?: string };

/** `label` is the mention as typed without its `@` (`docs:docs://guide`). */
export function resourceAttachment(label: string, parts: readonly ResourcePart[]): { report: AttachReport; block: string } {
  const shown = parts.map((part) => partBody(part, label));
  const body = parts.length === 0 ? `${label} is empty.` : shown.map((p, i) => (parts.length > 1 ? `[${parts[i]!.uri}]\n${p.body}` : p.body)).join("\n\n");
  const what = parts.length === 0 ? "empty" : parts.length === 1 ? shown[0]!.what : `${parts.length} parts: ${shown.map((p) => p.what).join("; ")}`;
  return { report: { kind: "attached", path: label, what }, block: attachmentBlock(label, 'kind="mcp-resource"', body) };
}

/** A resource that could not be read: the prompt goes without it, and the line says so. */
export function resourceRefused(label: string, why: string): AttachReport {
  return { kind: "refused", path: label, why: `${label} could not be read (${why}); the prompt is sent without it` };
}

function partBody(part: ResourcePart, label: string): { body: string; what: string } {
  const type = part.mimeType ?? (typeof part.text === "string" ? "text" : "unknown type");
  if (typeof part.text !== "string") {
    const size = byteSize(base64Bytes(part.blob ?? ""));
    return { body: `[binary resource ${part.uri} (${type}, ${size}); its bytes are not sent, only this note]`, what: `${type}, ${size}, binary: its type and size only` };
  }
  const lines = splitLines(part.text);
  const kept: string[] = [];
  let chars = 0;
  for (const line of lines) {
    const clipped = clipLine(line, MAX_LINE_CHARS);
    if (kept.length === ATTACH_MAX_LINES || (kept.length > 0 && chars + clipped.length + 1 > ATTACH_MAX_CHARS)) break;
    kept.push(clipped);
    chars += clipped.length + 1;
  }
  if (kept.length === lines.length) return { body: kept.join("\n"), what: `${type}, ${plural(lines.length, "line")}` };
  const server = label.split(":")[0]!;
  const note = `[Showing lines 1-${kept.length} of ${lines.length} of ${part.uri}; the rest is left out. mcp__${server}__read_resource reads it.]`;
  return { body: `${kept.join("\n")}\n\n${note}`, what: `${type}, lines 1-${kept.length} of ${lines.length}; the rest left out` };
}

function base64Bytes(blob: string): number {
  const padding = blob.endsWith("==") ? 2 : blob.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((blob.length * 3) / 4) - padding);
}

function byteSize(bytes: number): string {
  return bytes < 1024 ? plural(bytes, "byte") : `${(bytes / 1024).toFixed(1)} KB`;
}
