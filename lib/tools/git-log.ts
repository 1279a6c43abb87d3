import * as v from "valibot";
import { plural } from "../text/lines.ts";
import { defineTool } from "./define.ts";
import { gitPath, runGit } from "./git/run-git.ts";

const DEFAULT_LOG_LIMIT = 20;
const MAX_LOG_LIMIT = 200;

const schema = v.object({
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description(`Commits to list. Default ${DEFAULT_LOG_LIMIT}.`))),
  path: v.optional(v.pipe(v.string(), v.description("Only commits that touched this file or folder."))),
});

export const gitLogTool = defineTool({
  name: "git_log",
  description: "Recent commits, newest first, one per line: short hash, date, author, subject.",
  schema,
  mutates: false,
  subject: { kind: "path", of: (input) => input.path ?? "." },
  defaultDecision: "allow",
  async execute(input, ctx) {
    const limit = Math.min(input.limit ?? DEFAULT_LOG_LIMIT, MAX_LOG_LIMIT);
    const paths = input.path !== undefined ? ["--", gitPath("git_log", input.path, ctx).spec] : [];
    const out = await runGit("git_log", ["log", `--max-count=${limit}`, "--date=short", "--format=%h %ad %an: %s", "--no-color", ...paths], ctx).catch((error: Error) => {
      if (/does not have any commits yet/.test(error.message)) return "";
      throw error;
    });
    const lines = out.trimEnd().split("\n").filter(Boolean);
    if (lines.length === 0) return { output: "No commits yet.", summary: "no commits" };
    return { output: lines.join("\n"), summary: plural(lines.length, "commit") };
  },
});
