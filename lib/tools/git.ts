import * as v from "valibot";
import { defineTool } from "./define.ts";
import { gitBlame, gitDiff, gitLog, gitShow, gitStatus } from "./git/ops.ts";

const OPS = { status: gitStatus, diff: gitDiff, log: gitLog, show: gitShow, blame: gitBlame } as const;
const line = v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)));

const schema = v.object({
  op: v.picklist(["status", "diff", "log", "show", "blame"]),
  path: v.optional(v.pipe(v.string(), v.minLength(1, "path must not be empty"), v.description("File or folder to limit to; the file for blame."))),
  staged: v.optional(v.pipe(v.boolean(), v.description("diff: index against HEAD."))),
  ref: v.optional(v.pipe(v.string(), v.description("show: commit, branch, tag or HEAD~2. Default HEAD."))),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description("log: commits, default 20."))),
  startLine: line,
  endLine: line,
});

/**
 * Read-only git in one tool: the operation is `op`. Every run goes through runGit (lib/tools/git/run-git.ts):
 * no shell, no repository program (hooks, pagers, external diffs, textconv, filters), paths confined to the
 * workspace and secrets files refused or left out. The permission subject is the path (the workspace for none).
 */
export const gitTool = defineTool({
  name: "git",
  description:
    "Read-only git. status: branch and changed files. diff: unstaged changes (staged: staged ones). log: commits, newest first, one a line. show: a commit's message, files and diff. blame: last change of each line of path (startLine/endLine).",
  schema,
  mutates: false,
  subject: { kind: "path", of: (input) => input.path ?? ".", readsContent: true },
  defaultDecision: "allow",
  digest: { note: noteOf },
  execute: (input, ctx) => OPS[input.op](input, ctx),
});

/** How a call reads in a digest after its path: the operation and what sets it apart. */
function noteOf(input: v.InferOutput<typeof schema>): string | undefined {
  if (typeof input.op !== "string") return undefined;
  const lines = input.startLine !== undefined || input.endLine !== undefined ? ` lines ${input.startLine ?? 1}-${input.endLine ?? "end"}` : "";
  const extra = input.op === "diff" && input.staged ? " staged" : input.op === "show" ? ` ${input.ref ?? "HEAD"}` : input.op === "blame" ? lines : "";
  return `(${input.op}${extra})`;
}
