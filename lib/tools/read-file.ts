import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { looksBinary } from "../fs/binary.ts";
import { defineTool, MAX_TOOL_RESULT_CHARS } from "./define.ts";
import { clipLine, numberedLine, plural, splitLines } from "../text/lines.ts";
import { describeMissing } from "../fs/missing-path.ts";
import { readConfined } from "../fs/confined-ops.ts";
import { isSensitivePath, SECRETS_FILES } from "../fs/sensitive-path.ts";
import { displayPath, realpathOrSelf, resolveInWorkspace } from "../fs/workspace.ts";
import { sniffImage, type ImageInfo } from "../image/format.ts";
import { fitImage, megabytes } from "../image/fit.ts";
import type { ToolContext, ToolResult } from "./define.ts";

export const DEFAULT_READ_LINES = 2000;
export const MAX_LINE_CHARS = 2000;
/** Bigger files are refused rather than loaded whole; grep or bash (head, sed -n) can cut them. */
export const MAX_READ_BYTES = 10 * 1024 * 1024;
/** Room for the lines themselves, leaving space for the closing note under runTool's cut. */
const OUTPUT_BUDGET_CHARS = MAX_TOOL_RESULT_CHARS - 300;

const schema = v.object({
  path: v.pipe(v.string(), v.minLength(1, "path must not be empty")),
  offset: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.description("First line, from 1.")),
  ),
  limit: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Lines to read.")),
  ),
});

export const readFileTool = defineTool({
  name: "read_file",
  description:
    `Read a text file as "<line number><tab><text>" lines; the number and tab are not in the file (leave them out of oldString). ` +
    `Up to ${DEFAULT_READ_LINES} lines, each cut at ${MAX_LINE_CHARS} characters; the result says how to read on. ` +
    `An image (PNG, JPEG, GIF, WebP) is shown to you as an image. Refuses folders, binary and secrets files.`,
  schema,
  mutates: false,
  subagents: "every",
  subject: { kind: "path", of: (input) => input.path, readsContent: true },
  defaultDecision: "allow",
  digest: { note: (input) => (input.offset !== undefined ? `from line ${input.offset}` : undefined) },
  async execute(input, ctx) {
    const abs = resolveInWorkspace(ctx, input.path, "read_file");
    const shown = displayPath(ctx, abs);
    if (isSensitivePath(abs) || isSensitivePath(realpathOrSelf(abs))) {
      throw new ToolError(
        `read_file: ${shown} is a secrets file (${SECRETS_FILES}), which shiro does not read. ` +
          `Ask the user for the specific value you need, or read .env.example for the variable names.`,
      );
    }
    // Opened through the workspace root, link by link (lib/fs/confined.ts): what is read is inside.
    const found = readConfined({ root: ctx.root, tool: "read_file" }, abs, { maxBytes: MAX_READ_BYTES });
    if (found.kind === "missing") throw new ToolError(`read_file: ${describeMissing(ctx.root, abs, shown)}`);
    if (found.kind === "dir") throw new ToolError(`read_file: ${shown} is a directory. Use list_dir to see what it contains.`);
    if (found.kind === "other") throw new ToolError(`read_file: ${shown} is not a regular file (a device, socket or pipe), so it cannot be read as text.`);
    const bytes = found.bytes;
    if (!bytes) {
      throw new ToolError(
        `read_file: ${shown} is ${(found.size / 1024 / 1024).toFixed(1)} MB, too large to read whole. ` +
          `Use grep to find the part you need, or bash with head, tail or sed -n.`,
      );
    }
    const image = sniffImage(bytes);
    if (image) return showImage(shown, bytes, image, ctx.images);
    if (looksBinary(bytes)) {
      throw new ToolError(
        `read_file: ${shown} is a binary file (it contains NUL bytes), so it cannot be shown as text. ` +
          `Use bash (file, xxd | head) if you need to inspect it.`,
      );
    }
    const lines = splitLines(new TextDecoder().decode(bytes));
    const output = renderWindow(lines, input.offset ?? 1, input.limit ?? DEFAULT_READ_LINES, shown);
    return { output, summary: plural(lines.length, "line") };
  },
});

/**
 * The numbered lines [offset, offset + limit), with a note when the file goes on or starts earlier.
 * Stops early rather than overflow runTool's cut, so the note can say exactly where to resume.
 */
function renderWindow(lines: readonly string[], offset: number, limit: number, shown: string): string {
  if (lines.length === 0) return `${shown} is empty.`;
  if (offset > lines.length) {
    throw new ToolError(`read_file: offset ${offset} is past the end of ${shown}, which has ${plural(lines.length, "line")}.`);
  }
  const end = Math.min(lines.length, offset + limit - 1);
  const out: string[] = [];
  let chars = 0;
  let last = offset - 1;
  while (last < end) {
    const line = numberedLine(last + 1, clipLine(lines[last]!, MAX_LINE_CHARS));
    if (out.length > 0 && chars + line.length + 1 > OUTPUT_BUDGET_CHARS) break;
    out.push(line);
    chars += line.length + 1;
    last++;
  }
  const body = out.join("\n");
  if (offset === 1 && last === lines.length) return body;
  const more = last < lines.length ? ` Call read_file with offset ${last + 1} to read more.` : "";
  return `${body}\n\n[Showing lines ${offset}-${last} of ${lines.length} in ${shown}.${more}]`;
}

/**
 * An image file as the model sees it: a line saying what it is, and the image itself after it
 * (fitted to the size limits like an attached one: lib/image/fit.ts). Where images are not sent
 * (no store: a subagent) or it cannot be fitted, the call fails with the reason.
 */
async function showImage(shown: string, bytes: Uint8Array, info: ImageInfo, store: ToolContext["images"]): Promise<ToolResult> {
  const kind = info.mediaType.slice("image/".length).toUpperCase();
  if (!store) throw new ToolError(`read_file: ${shown} is a ${kind} image (${info.width}×${info.height}), and images cannot be shown here. Describe what you need from it to the user instead.`);
  const fitted = await fitImage(bytes);
  if (!fitted.ok) throw new ToolError(`read_file: ${shown} ${fitted.why}, so it cannot be shown.`);
  const { width, height, mediaType } = fitted.info;
  const ref = store.put(fitted.bytes, mediaType);
  const shrunk = fitted.shrunkFrom ? `, shrunk from ${fitted.shrunkFrom.width}×${fitted.shrunkFrom.height} (${megabytes(fitted.shrunkFrom.bytes)}) to fit the limits` : "";
  return {
    output: `${shown}: ${kind} image, ${width}×${height}${shrunk}. The image follows.`,
    summary: `image ${width}×${height}`,
    images: [{ ref, mediaType, name: shown.split("/").pop() ?? shown, width, height }],
  };
}
