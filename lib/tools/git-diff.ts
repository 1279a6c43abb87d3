import * as v from "valibot";
import { formatLineChanges } from "../text/diff.ts";
import { defineTool } from "./define.ts";
import { gitPath, runGit, SECRET_EXCLUDES, workspaceSpec } from "./git/run-git.ts";

const schema = v.object({
  staged: v.optional(v.pipe(v.boolean(), v.description("Staged changes instead of unstaged ones."))),
  path: v.optional(v.pipe(v.string(), v.description("Limit to this file or folder."))),
});

export const gitDiffTool = defineTool({
  name: "git_diff",
  description: "Unified diff of the working tree against the index (unstaged changes), or of the index against HEAD with staged.",
  schema,
  mutates: false,
  subject: { kind: "path", of: (input) => input.path ?? ".", readsContent: true },
  defaultDecision: "allow",
  digest: { note: (input) => (input.staged ? "(staged)" : undefined) },
  async execute(input, ctx) {
    const spec = input.path !== undefined ? gitPath("git_diff", input.path, ctx).spec : workspaceSpec(ctx);
    const args = ["diff", ...(input.staged ? ["--cached"] : []), "--no-ext-diff", "--no-textconv", "--no-color", "--ignore-submodules=all", "--", spec, ...SECRET_EXCLUDES];
    const out = await runGit("git_diff", args, ctx);
    if (out.trim() === "") {
      return { output: input.staged ? "No staged changes." : "No unstaged changes (untracked files are not diffed; git_status lists them).", summary: "no changes" };
    }
    const added = out.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++")).length;
    const removed = out.split("\n").filter((l) => l.startsWith("-") && !l.startsWith("---")).length;
    return { output: out, summary: formatLineChanges({ added, removed }) };
  },
});
