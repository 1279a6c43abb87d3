import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { defineTool } from "./define.ts";
import { plural } from "../text/lines.ts";
import { describeMissing, statIfExists } from "../fs/missing-path.ts";
import { treeListing } from "../fs/tree-listing.ts";
import { displayPath, resolveInWorkspace } from "../fs/workspace.ts";

export const DEFAULT_LIST_DEPTH = 2;
export const MAX_LIST_DEPTH = 10;
export const MAX_LIST_ENTRIES = 500;

const schema = v.object({
  path: v.optional(v.string()),
  depth: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(MAX_LIST_DEPTH),
      v.description(`Levels, default ${DEFAULT_LIST_DEPTH}.`),
    ),
  ),
});

export const listDirTool = defineTool({
  name: "list_dir",
  description:
    `A folder as an indented tree; folders end in "/", symlinks show "-> target", at most ${MAX_LIST_ENTRIES} entries. ` +
    "Folders at the depth limit are shown without their contents. Skips .git, node_modules and .gitignore'd files.",
  schema,
  mutates: false,
  subagents: "every",
  subject: { kind: "path", of: (input) => input.path ?? "." },
  defaultDecision: "allow",
  digest: { unit: ["entry", "entries"] },
  async execute(input, ctx) {
    const dir = resolveInWorkspace(ctx, input.path ?? ".", "list_dir");
    const shown = displayPath(ctx, dir);
    const stats = statIfExists(dir);
    if (!stats) throw new ToolError(`list_dir: ${describeMissing(ctx.root, dir, shown)}`);
    if (!stats.isDirectory()) throw new ToolError(`list_dir: ${shown} is a file. Use read_file to read it.`);

    const { lines, count, capped } = treeListing(dir, ctx.root, shown, input.depth ?? DEFAULT_LIST_DEPTH, MAX_LIST_ENTRIES);
    if (capped) {
      lines.push(`\n[Stopped at ${MAX_LIST_ENTRIES} entries. List a subdirectory, or pass a smaller depth, to see the rest.]`);
    }
    return { output: lines.join("\n"), summary: `${capped ? "over " : ""}${plural(count, "entry", "entries")}` };
  },
});
