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
 * workspace and secrets files refused or left out. The permission subject is the path (the workspace for none).
 */
export const gitTool = defineTool({
  name: "git",
  description:
    `Read-only git; path limits any op. status: branch, changed files. diff: unstaged changes, or staged. log: commits, newest first (limit, default ${DEFAULT_LOG_LIMIT}). ` +
    "show: a commit's message, files and diff (ref, default HEAD). blame: who last changed each line of path (startLine, endLine).",
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
