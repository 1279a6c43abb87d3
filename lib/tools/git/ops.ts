import { ToolError } from "../../errors.ts";
import { formatLineChanges } from "../../text/diff.ts";
import { plural } from "../../text/lines.ts";
import type { ToolContext, ToolResult } from "../define.ts";
import { gitPath, gitRef, runGit, SECRET_EXCLUDES, workspaceSpec } from "./run-git.ts";

/** The git tool's input once parsed (lib/tools/git.ts); each operation reads the fields it uses. */
export type GitInput = { path?: string; staged?: boolean; ref?: string; limit?: number; startLine?: number; endLine?: number };

export const DEFAULT_LOG_LIMIT = 20;
const MAX_LOG_LIMIT = 200;

/** The branch and the changed, staged and untracked files (git status --short --branch). */
export async function gitStatus(input: GitInput, ctx: ToolContext): Promise<ToolResult> {
  const spec = input.path !== undefined ? gitPath("git status", input.path, ctx).spec : workspaceSpec(ctx);
  const out = await runGit("git status", ["status", "--short", "--branch", "--untracked-files=normal", "--ignore-submodules=all", "--", spec], ctx);
  const lines = out.trimEnd().split("\n").filter(Boolean);
  const changed = lines.filter((line) => !line.startsWith("## "));
  if (changed.length === 0) return { output: `${lines.join("\n")}\nNothing to commit: the working tree is clean.`, summary: "clean" };
  return { output: lines.join("\n"), summary: `${changed.length} changed` };
}

/** Unified diff of the working tree against the index, or of the index against HEAD (staged). Secrets files left out. */
export async function gitDiff(input: GitInput, ctx: ToolContext): Promise<ToolResult> {
  const spec = input.path !== undefined ? gitPath("git diff", input.path, ctx).spec : workspaceSpec(ctx);
  const args = ["diff", ...(input.staged ? ["--cached"] : []), "--no-ext-diff", "--no-textconv", "--no-color", "--ignore-submodules=all", "--", spec, ...SECRET_EXCLUDES];
  const out = await runGit("git diff", args, ctx);
  if (out.trim() === "") {
    return { output: input.staged ? "No staged changes." : "No unstaged changes (untracked files are not diffed; op status lists them).", summary: "no changes" };
  }
  const added = out.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++")).length;
  const removed = out.split("\n").filter((l) => l.startsWith("-") && !l.startsWith("---")).length;
  return { output: out, summary: formatLineChanges({ added, removed }) };
}

/** Recent commits, newest first, one a line: short hash, date, author, subject. */
export async function gitLog(input: GitInput, ctx: ToolContext): Promise<ToolResult> {
  const limit = Math.min(input.limit ?? DEFAULT_LOG_LIMIT, MAX_LOG_LIMIT);
  const paths = input.path !== undefined ? ["--", gitPath("git log", input.path, ctx).spec] : [];
  const out = await runGit("git log", ["log", `--max-count=${limit}`, "--date=short", "--format=%h %ad %an: %s", "--no-color", ...paths], ctx).catch((error: Error) => {
    if (/does not have any commits yet/.test(error.message)) return "";
    throw error;
  });
  const lines = out.trimEnd().split("\n").filter(Boolean);
  if (lines.length === 0) return { output: "No commits yet.", summary: "no commits" };
  return { output: lines.join("\n"), summary: plural(lines.length, "commit") };
}

/** One commit: its message, the files it changed and its diff. Only a commit: a blob or tree id would print a file past the secrets rule. */
export async function gitShow(input: GitInput, ctx: ToolContext): Promise<ToolResult> {
  const ref = gitRef("git show", input.ref ?? "HEAD");
  const spec = input.path !== undefined ? gitPath("git show", input.path, ctx).spec : workspaceSpec(ctx);
  const commit = (await runGit("git show", ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], ctx).catch(() => "")).trim();
  if (!/^[0-9a-f]{7,64}$/.test(commit)) {
    return { output: `git show: "${ref}" is not a commit here. op log lists recent ones.`, summary: "no such commit" };
  }
  const args = ["show", "--no-ext-diff", "--no-textconv", "--no-color", "--stat", "--patch", "--format=medium", commit, "--", spec, ...SECRET_EXCLUDES];
  const out = await runGit("git show", args, ctx);
  return { output: out.trimEnd(), summary: commit.slice(0, 10) };
}

/** Who last changed each line of one file, and in which commit; a line range with startLine/endLine. */
export async function gitBlame(input: GitInput, ctx: ToolContext): Promise<ToolResult> {
  if (input.path === undefined) throw new ToolError("git blame: give the file to annotate in path.");
  const { spec } = gitPath("git blame", input.path, ctx);
  if (input.startLine !== undefined && input.endLine !== undefined && input.endLine < input.startLine) {
    throw new ToolError("git blame: endLine is before startLine.");
  }
  const range = input.startLine !== undefined || input.endLine !== undefined ? [`-L${input.startLine ?? 1},${input.endLine ?? ""}`] : [];
  const out = await runGit("git blame", ["blame", "--no-textconv", "--date=short", ...range, "--", spec.replace(/^:\(literal\)/, "")], ctx);
  const lines = out.trimEnd().split("\n").filter(Boolean);
  return { output: lines.join("\n"), summary: plural(lines.length, "line") };
}
