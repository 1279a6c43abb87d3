import { basename, dirname, relative, sep } from "node:path";
import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { BINARY_SNIFF_BYTES, looksBinary } from "../fs/binary.ts";
import { defineTool } from "./define.ts";
import { searchBuiltin, type GrepMatch, type GrepQuery } from "./grep/builtin.ts";
import { searchRipgrep } from "./grep/ripgrep.ts";
import { clipLine, plural } from "../text/lines.ts";
import { describeMissing, statIfExists } from "../fs/missing-path.ts";
import { isSensitivePath } from "../fs/sensitive-path.ts";
import { displayPath, resolveInWorkspace } from "../fs/workspace.ts";

export const MAX_GREP_MATCHES = 250;
export const MAX_GREP_LINE_CHARS = 300;

const schema = v.object({
  pattern: v.pipe(v.string(), v.minLength(1, "pattern must not be empty"), v.description("Regular expression to search for.")),
  path: v.optional(v.pipe(v.string(), v.description("File or directory to search. Default: the working directory."))),
  include: v.optional(
    v.pipe(
      v.string(),
      v.description(
        'Only search files matching this glob: a name glob such as "*.ts" or "*.{ts,tsx}" (any depth), ' +
          'or a path glob such as "src/**/*.ts" (relative to path).',
      ),
    ),
  ),
  ignoreCase: v.optional(v.pipe(v.boolean(), v.description("Match regardless of case. Default false."))),
});

export type GrepToolOptions = {
  /** Path of the ripgrep binary, or null to use the built-in search. Asked on every call. */
  findRipgrep: () => string | null;
};

/** The grep tool; tests build one with `findRipgrep: () => null` to exercise the built-in search. */
export function createGrepTool(options: GrepToolOptions) {
  return defineTool({
    name: "grep",
    description:
      "Search file contents with a regular expression (JavaScript/Rust syntax, matched line by line). Prints " +
      `"path:line: text" for each matching line, files in path order, at most ${MAX_GREP_MATCHES} lines. Escape ` +
      "literal special characters (\\( \\. \\{). Narrow with path and include (e.g. \"*.ts\"). Skips .git, node_modules, " +
      ".gitignore'd, binary and secrets files. Use glob to find files by name and read_file to see a match in context.",
    schema,
    mutates: false,
    subject: { kind: "pattern", of: (input) => input.pattern },
    defaultDecision: "allow",
    digest: {
      note: (input) => [input.path && `in ${input.path}`, input.include && `(${input.include})`].filter(Boolean).join(" ") || undefined,
      unit: ["match", "matches"],
    },
    async execute(input, ctx) {
      try {
        new RegExp(input.pattern);
      } catch (error) {
        throw new ToolError(
          `grep: invalid regular expression ${JSON.stringify(input.pattern)} (${(error as Error).message}). ` +
            `Escape characters that should match literally, such as ( [ { . * + ? |, with a backslash.`,
        );
      }
      const target = resolveInWorkspace(ctx, input.path ?? ".", "grep");
      const shownTarget = displayPath(ctx, target);
      const stats = statIfExists(target);
      if (!stats) throw new ToolError(`grep: ${describeMissing(target, shownTarget)}`);
      const targetIsFile = !stats.isDirectory();
      if (targetIsFile && isSensitivePath(target)) {
        throw new ToolError(`grep: ${shownTarget} is a secrets file (.env, .env.*, *.pem), which shiro does not search.`);
      }
      if (targetIsFile && looksBinary(await Bun.file(target).slice(0, BINARY_SNIFF_BYTES).bytes())) {
        return { output: `${shownTarget} is a binary file; grep only searches text.`, summary: "binary file" };
      }

      const base = targetIsFile ? dirname(target) : target;
      const include = input.include?.replace(/^(\.\/)+/, "");
      const includeGlob = include ? new Bun.Glob(include) : undefined;
      const accept = (file: string) => {
        if (isSensitivePath(file)) return false;
        if (!includeGlob || !include) return true;
        return includeGlob.match(include.includes("/") ? relative(base, file).split(sep).join("/") : basename(file));
      };
      const query: GrepQuery = {
        pattern: input.pattern,
        ignoreCase: input.ignoreCase ?? false,
        target,
        targetIsFile,
        root: ctx.root,
        accept,
        limit: MAX_GREP_MATCHES,
        signal: ctx.signal,
      };
      const rg = options.findRipgrep();
      const { matches, limitReached } = rg ? await searchRipgrep(rg, query) : await searchBuiltin(query);
      return render(matches, limitReached, input.pattern, shownTarget, (file) => displayPath(ctx, file));
    },
  });
}

export const grepTool = createGrepTool({ findRipgrep: () => Bun.which("rg") });

function render(matches: GrepMatch[], limitReached: boolean, pattern: string, shownTarget: string, show: (file: string) => string) {
  if (matches.length === 0) {
    const where = shownTarget === "." ? "the working directory" : shownTarget;
    return { output: `No matches for ${JSON.stringify(pattern)} in ${where}.`, summary: "no matches" };
  }
  const lines = matches.map((m) => `${show(m.file)}:${m.line}: ${clipLine(m.text, MAX_GREP_LINE_CHARS)}`);
  const files = new Set(matches.map((m) => m.file)).size;
  const note = limitReached
    ? `\n\n[Stopped at ${MAX_GREP_MATCHES} matching lines; there are more. Narrow the pattern, path or include to see the rest.]`
    : "";
  const count = `${limitReached ? "over " : ""}${plural(matches.length, "match", "matches")} in ${plural(files, "file")}`;
  return { output: lines.join("\n") + note, summary: count };
}
