import * as v from "valibot";
import { defineTool } from "./define.ts";
import { gitPath, runGit, workspaceSpec } from "./git/run-git.ts";

const schema = v.object({
  path: v.optional(v.pipe(v.string(), v.description("Limit to this file or folder."))),
});

export const gitStatusTool = defineTool({
  name: "git_status",
  description: "The branch and the changed, staged and untracked files (git status --short --branch).",
  schema,
  mutates: false,
  subject: { kind: "path", of: (input) => input.path ?? "." },
  defaultDecision: "allow",
  async execute(input, ctx) {
    const spec = input.path !== undefined ? gitPath("git_status", input.path, ctx).spec : workspaceSpec(ctx);
    const out = await runGit("git_status", ["status", "--short", "--branch", "--untracked-files=normal", "--ignore-submodules=all", "--", spec], ctx);
    const lines = out.trimEnd().split("\n").filter(Boolean);
    const changed = lines.filter((line) => !line.startsWith("## "));
    if (changed.length === 0) return { output: `${lines.join("\n")}\nNothing to commit: the working tree is clean.`, summary: "clean" };
    return { output: lines.join("\n"), summary: `${changed.length} changed` };
  },
});
