import * as v from "valibot";
import { defineTool } from "./define.ts";
import { gitPath, gitRef, runGit, SECRET_EXCLUDES, workspaceSpec } from "./git/run-git.ts";

const schema = v.object({
  ref: v.optional(v.pipe(v.string(), v.description("Commit, branch, tag or e.g. HEAD~2. Default HEAD."))),
  path: v.optional(v.pipe(v.string(), v.description("Limit the diff to this file or folder."))),
});

export const gitShowTool = defineTool({
  name: "git_show",
  description: "One commit: its message, the files it changed and its diff.",
  schema,
  mutates: false,
  subject: { kind: "text", of: (input) => `${input.ref ?? "HEAD"}${input.path !== undefined ? ` -- ${input.path}` : ""}` },
  defaultDecision: "allow",
  async execute(input, ctx) {
    const ref = gitRef("git_show", input.ref ?? "HEAD");
    const spec = input.path !== undefined ? gitPath("git_show", input.path, ctx).spec : workspaceSpec(ctx);
    // Only a commit: a blob or tree id would print a file past the secrets rule.
    const commit = (await runGit("git_show", ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], ctx).catch(() => "")).trim();
    if (!/^[0-9a-f]{7,64}$/.test(commit)) {
      return { output: `git_show: "${ref}" is not a commit here. git_log lists recent ones.`, summary: "no such commit" };
    }
    const args = ["show", "--no-ext-diff", "--no-textconv", "--no-color", "--stat", "--patch", "--format=medium", commit, "--", spec, ...SECRET_EXCLUDES];
    const out = await runGit("git_show", args, ctx);
    return { output: out.trimEnd(), summary: commit.slice(0, 10) };
  },
});
