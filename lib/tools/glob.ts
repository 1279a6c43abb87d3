import { lstatSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { defineTool } from "./define.ts";
import { createIgnoreFilter } from "../fs/ignore-filter.ts";
import { plural } from "../text/lines.ts";
import { describeMissing, statIfExists } from "../fs/missing-path.ts";
import { walk } from "../fs/walk.ts";
import { displayPath, realpathOrSelf, resolveInWorkspace } from "../fs/workspace.ts";
import { isSensitivePath } from "../fs/sensitive-path.ts";

export const MAX_GLOB_RESULTS = 1000;

const schema = v.object({
  pattern: v.pipe(
    v.string(),
    v.minLength(1, "pattern must not be empty"),
    v.description('e.g. "**/*.ts", "src/*.{ts,tsx}".'),
  ),
  path: v.optional(v.pipe(v.string(), v.description("Folder to search from."))),
});

export const globTool = defineTool({
  name: "glob",
  description:
    'Find files by name. "*" stays in one folder, "**" crosses folders ("*.ts" is only the top level). ' +
    `Paths come newest first, at most ${MAX_GLOB_RESULTS}. Skips secrets files, and .git, node_modules and .gitignore'd ones unless the pattern starts in them.`,
  schema,
  mutates: false,
  subagents: "every",
  subject: { kind: "pattern", of: (input) => input.pattern },
  defaultDecision: "allow",
  digest: { note: (input) => (input.path ? `in ${input.path}` : undefined), unit: ["file", "files"] },
  async execute(input, ctx) {
    const base = resolveInWorkspace(ctx, input.path ?? ".", "glob");
    const shownBase = displayPath(ctx, base);
    const stats = statIfExists(base);
    if (!stats) throw new ToolError(`glob: ${describeMissing(ctx.root, base, shownBase)}`);
    if (!stats.isDirectory()) throw new ToolError(`glob: ${shownBase} is a file; pass the directory to search in as path.`);
    const pattern = input.pattern.replace(/^(\.\/)+/, "");
    const segments = pattern.split("/");
    if (isAbsolute(pattern) || segments.includes("..")) {
      throw new ToolError(`glob: pattern "${input.pattern}" must be relative to path, without "..". Put the directory in path instead.`);
    }

    // Walk only below the pattern's fixed leading folders ("src/lib/**/*.ts" starts in src/lib).
    const folders = segments.slice(0, -1);
    const firstWild = folders.findIndex((segment) => /[*?[{\\]/.test(segment));
    const fixed = firstWild === -1 ? folders : folders.slice(0, firstWild);
    const start = resolveInWorkspace(ctx, join(base, ...fixed), "glob");
    const found = statIfExists(start)?.isDirectory() ? collect(pattern, fixed.join("/"), start, ctx.root) : [];

    if (found.length === 0) {
      const hint =
        pattern.includes("/") || pattern.startsWith("**")
          ? ""
          : ` Patterns match from path down, so "*" stays in one folder; try "**/${pattern}".`;
      const where = shownBase === "." ? "the working directory" : shownBase;
      return { output: `No files match "${input.pattern}" in ${where}.${hint}`, summary: "no files" };
    }
    found.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.abs < b.abs ? -1 : 1));
    const shown = found.slice(0, MAX_GLOB_RESULTS).map((file) => displayPath(ctx, file.abs));
    const note =
      found.length > MAX_GLOB_RESULTS
        ? `\n\n[Showing the ${MAX_GLOB_RESULTS} most recently modified of ${found.length} matching files. ` +
          "Narrow the pattern or path to see the others.]"
        : "";
    return { output: shown.join("\n") + note, summary: plural(found.length, "file") };
  },
});

/**
 * Files (and symlinks) below `start` whose path relative to the search base (`startRel` + entry)
 * matches. Secrets files are left out, by name and by the real path a symlink leads to.
 */
function collect(pattern: string, startRel: string, start: string, root: string): Array<{ abs: string; mtimeMs: number }> {
  const glob = new Bun.Glob(pattern);
  const prefix = startRel ? `${startRel}/` : "";
  const found: Array<{ abs: string; mtimeMs: number }> = [];
  for (const entry of walk(start, createIgnoreFilter(root), Number.POSITIVE_INFINITY, root)) {
    if (entry.kind !== "file" && entry.kind !== "symlink") continue;
    if (!glob.match(prefix + entry.rel)) continue;
    if (isSensitivePath(entry.abs) || (entry.kind === "symlink" && isSensitivePath(realpathOrSelf(entry.abs)))) continue;
    found.push({ abs: entry.abs, mtimeMs: modifiedAt(entry.abs) });
  }
  return found;
}

function modifiedAt(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return lstatSync(path).mtimeMs; // a broken symlink
  }
}
