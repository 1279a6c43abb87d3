import * as v from "valibot";
import { defineTool } from "./define.ts";
import { DEFAULT_LOG_LIMIT, gitBlame, gitDiff, gitLog, gitShow, gitStatus } from "./git/ops.ts";

const OPS = { status: gitStatus, diff: gitDiff, log: gitLog, show: gitShow, blame: gitBlame } as const;
const line = v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)));

const schema = v.object({
  op: v.picklist(["status", "diff", "log", "show", "blame"]),
  path: v.optional(v.pipe(v.string(), v.minLength(1, "path must not be empty"))),
  staged: v.optional(v.boolean()),
  ref: v.optional(v.string()),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  startLine: line,
  endLine: line,
});

/**
 * Read-only git in one tool: the operation is `op`. Every run goes through runGit (lib/tools/git/run-git.ts):
 * no shell, no repository program (hooks, pagers, external diffs, textconv, filters), paths confined to the
 * workspace and secrets files refused or left out. Permissions judge the path (`.`, the working directory, for
 * none) through `subject.paths`; `of` is what the screen and a pruned call's digest show: `status src`, `show HEAD~2`.
 */
export const gitTool = defineTool({
  name: "git",
  description:
    `Read-only git; path limits any op. status: branch, changed files. diff: unstaged changes, or staged. log: commits, newest first (limit, default ${DEFAULT_LOG_LIMIT}). ` +
    "show: a commit's message, files and diff (ref, default HEAD). blame: who last changed each line of path (startLine, endLine).",
  schema,
  mutates: false,
  subagents: "every",
  subject: { kind: "path", of: callLabel, paths: (input) => [input.path ?? "."], readsContent: true },
  defaultDecision: "allow",
  execute: (input, ctx) => OPS[input.op](input, ctx),
});

/** The call in a few words: the operation, what sets it apart, the path. Reads the input as the model sent it. */
function callLabel(input: Partial<v.InferOutput<typeof schema>>): string {
  const op = typeof input.op === "string" ? input.op : "?";
  const lines = input.startLine !== undefined || input.endLine !== undefined ? `lines ${input.startLine ?? 1}-${input.endLine ?? "end"}` : "";
  const extra = op === "diff" && input.staged ? "staged" : op === "show" ? (input.ref ?? "HEAD") : "";
  return [op, extra, input.path ?? "", op === "blame" ? lines : ""].filter((part) => part !== "").join(" ");
}
