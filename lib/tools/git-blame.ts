import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { plural } from "../text/lines.ts";
import { defineTool } from "./define.ts";
import { gitPath, runGit } from "./git/run-git.ts";

const line = (what: string) => v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description(what)));

const schema = v.object({
  path: v.pipe(v.string(), v.minLength(1, "path must not be empty"), v.description("File to annotate.")),
  startLine: line("First line. Default 1."),
  endLine: line("Last line. Default the end."),
});

export const gitBlameTool = defineTool({
  name: "git_blame",
  description: "Who last changed each line of a file, and in which commit (git blame).",
  schema,
  mutates: false,
  subject: { kind: "path", of: (input) => input.path, readsContent: true },
  defaultDecision: "allow",
  digest: { note: (input) => (input.startLine !== undefined || input.endLine !== undefined ? `lines ${input.startLine ?? 1}-${input.endLine ?? "end"}` : undefined) },
  async execute(input, ctx) {
    const { spec } = gitPath("git_blame", input.path, ctx);
    if (input.startLine !== undefined && input.endLine !== undefined && input.endLine < input.startLine) {
      throw new ToolError("git_blame: endLine is before startLine.");
    }
    const range = input.startLine !== undefined || input.endLine !== undefined ? [`-L${input.startLine ?? 1},${input.endLine ?? ""}`] : [];
    const out = await runGit("git_blame", ["blame", "--no-textconv", "--date=short", ...range, "--", spec.replace(/^:\(literal\)/, "")], ctx);
    const lines = out.trimEnd().split("\n").filter(Boolean);
    return { output: lines.join("\n"), summary: plural(lines.length, "line") };
  },
});
