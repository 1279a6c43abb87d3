import { ToolError } from "../../errors.ts";
import { looksBinary } from "../../fs/binary.ts";
import { describeMissing } from "../../fs/missing-path.ts";
import { readConfined, statConfined } from "../../fs/confined-ops.ts";
import type { Confined } from "../../fs/confined.ts";
import { isSensitivePath } from "../../fs/sensitive-path.ts";
import { displayPath, realpathOrSelf, resolveInWorkspace, type Where } from "../../fs/workspace.ts";
import { applyChunks } from "./apply-chunks.ts";
import { parsePatch, type PatchOp } from "./parse.ts";

/** One file the patch touches, with its text before and after; paths absolute and as displayed. */
export type PlannedFile =
  /** `before` is set when the file exists already: Add File replaces it, as the reference does. */
  | { type: "add"; abs: string; shown: string; before: string | undefined; after: string }
  | { type: "update"; abs: string; shown: string; before: string; after: string; moveTo?: { abs: string; shown: string; before: string | undefined } }
  | { type: "delete"; abs: string; shown: string; before: string };

export type PatchPlan = { ok: true; files: PlannedFile[] } | { ok: false; error: string };

const TOOL = "apply_patch";

/**
 * The whole patch checked against the workspace as it is now, without writing: parsed, every
 * path confined to the workspace and not a secrets file, no file named twice, each file in the
 * state its section needs (update and delete: an existing text file; nothing a directory), and
 * every hunk applied in memory. The first problem is the error, naming the file and the hunk.
 * Both the approval preview and the tool read this, so what is shown is what is written.
 */
export function planPatch(text: string, where: Where): PatchPlan {
  const parsed = parsePatch(text);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const files: PlannedFile[] = [];
  const seen = new Set<string>();
  try {
    for (const op of parsed.ops) files.push(planOp(op, where, seen));
  } catch (error) {
    if (error instanceof ToolError) return { ok: false, error: error.message.replace(/^apply_patch: /, "") };
    throw error;
  }
  return { ok: true, files };
}

/** Every path a patch names (targets of moves included), as written; [] when it does not parse. For permission rules. */
export function patchPaths(text: string): string[] {
  const parsed = parsePatch(text);
  if (!parsed.ok) return [];
  return parsed.ops.flatMap((op) => (op.type === "update" && op.moveTo !== undefined ? [op.path, op.moveTo] : [op.path]));
}

function planOp(op: PatchOp, where: Where, seen: Set<string>): PlannedFile {
  const target = (path: string) => {
    const abs = resolveInWorkspace(where, path, TOOL);
    const shown = displayPath(where, abs);
    if (isSensitivePath(abs) || isSensitivePath(realpathOrSelf(abs))) {
      throw new ToolError(`${shown} is a secrets file (.env, .env.*, *.pem), which apply_patch does not touch. Ask the user to change it.`);
    }
    if (seen.has(abs)) throw new ToolError(`${shown} appears twice in the patch. Put all of a file's hunks in one section.`);
    seen.add(abs);
    return { abs, shown };
  };
  const { abs, shown } = target(op.path);
  const at: Confined = { root: where.root, tool: TOOL };
  const statIfExists = (path: string) => {
    const found = statConfined(at, path);
    return found.kind === "missing" ? undefined : { isDirectory: () => found.kind === "dir" };
  };
  const readText = (path: string, shown: string, line: number) => readTextAt(at, path, shown, line);
  const readExisting = (path: string, shown: string, line: number, section: string) => readExistingAt(at, path, shown, line, section);
  switch (op.type) {
    case "add": {
      const stats = statIfExists(abs);
      if (stats?.isDirectory()) throw new ToolError(`line ${op.line}: ${shown} is a directory, so Add File cannot create it.`);
      return { type: "add", abs, shown, before: stats ? readText(abs, shown, op.line) : undefined, after: op.content };
    }
    case "delete":
      return { type: "delete", abs, shown, before: readExisting(abs, shown, op.line, "Delete File") };
    case "update": {
      const before = readExisting(abs, shown, op.line, "Update File");
      const outcome = applyChunks(before, op.chunks);
      if (!outcome.ok) {
        const chunk = op.chunks[outcome.chunk]!;
        throw new ToolError(`hunk ${outcome.chunk + 1} of ${op.chunks.length} for ${shown} (patch line ${chunk.line}) does not apply: ${outcome.why}`);
      }
      if (op.moveTo === undefined) return { type: "update", abs, shown, before, after: outcome.content };
      const to = target(op.moveTo);
      const stats = statIfExists(to.abs);
      if (stats?.isDirectory()) throw new ToolError(`line ${op.line + 1}: cannot move ${shown} to ${to.shown}: that is a directory.`);
      return { type: "update", abs, shown, before, after: outcome.content, moveTo: { ...to, before: stats ? readText(to.abs, to.shown, op.line + 1) : undefined } };
    }
    default:
      return op satisfies never;
  }
}

function readExistingAt(at: Confined, abs: string, shown: string, line: number, section: string): string {
  const found = statConfined(at, abs);
  if (found.kind === "missing") throw new ToolError(`line ${line}: ${section}: ${describeMissing(at.root, abs, shown)}${section === "Update File" ? ' To create it use "*** Add File:".' : ""}`);
  if (found.kind === "dir") throw new ToolError(`line ${line}: ${section}: ${shown} is a directory; patches change files.`);
  return readTextAt(at, abs, shown, line);
}

/** The text of the file at `abs`, read through the workspace root (lib/fs/confined.ts). */
function readTextAt(at: Confined, abs: string, shown: string, line: number): string {
  const found = readConfined(at, abs);
  if (found.kind !== "file" || !found.bytes) throw new ToolError(`line ${line}: ${shown} is not a regular file; apply_patch changes text files only.`);
  const bytes = found.bytes;
  if (looksBinary(bytes)) throw new ToolError(`line ${line}: ${shown} is a binary file; apply_patch changes text files only.`);
  return new TextDecoder().decode(bytes);
}
