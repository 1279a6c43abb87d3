import { basename, dirname, relative, sep } from "node:path";
import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { BINARY_SNIFF_BYTES, looksBinary } from "../fs/binary.ts";
import { defineTool } from "./define.ts";
import { searchBuiltin, type GrepMatch, type GrepQuery } from "./grep/builtin.ts";
import { searchRipgrep } from "./grep/ripgrep.ts";
import { clipLine, plural } from "../text/lines.ts";
import { describeMissing, statIfExists } from "../fs/missing-path.ts";
import { isSensitivePath, SECRETS_FILES } from "../fs/sensitive-path.ts";
import { displayPath, isInside, realpathOrSelf, resolveInWorkspace } from "../fs/workspace.ts";
import type { Commands } from "../sandbox/index.ts";
import { defaultCommands } from "./commands.ts";

export const MAX_GREP_MATCHES = 250;
export const MAX_GREP_LINE_CHARS = 300;

const schema = v.object({
  pattern: v.pipe(v.string(), v.minLength(1, "pattern must not be empty"), v.description("Regular expression.")),
  path: v.optional(v.string()),
  include: v.optional(
    v.pipe(
      v.string(),
      v.description('Only files matching a glob: "*.ts" (any depth) or "src/**/*.ts".'),
    ),
  ),
  ignoreCase: v.optional(v.boolean()),
});

export type GrepToolOptions = {
  /** Path of the ripgrep binary, or null to use the built-in search. Default: `rg` as a helper of `commands` (lib/sandbox/helpers.ts). */
  findRipgrep?: () => string | null;
  /** Where ripgrep runs (the session's sandbox). Default: directly, without the key in its environment. */
  commands?: Commands;
};

/**
 * True when grep may show `file`'s lines: neither its name nor its real path is a secrets file,
 * and its real path is inside the workspace (a symlink `notes.txt -> .env` or one leading out of
 * the workspace is skipped). `realRoot` is the workspace root's real path.
 */
export function grepMayRead(file: string, realRoot: string): boolean {
  if (isSensitivePath(file)) return false;
  const real = realpathOrSelf(file);
  return !isSensitivePath(real) && isInside(realRoot, real);
}

/** The grep tool; tests build one with `findRipgrep: () => null` to exercise the built-in search. */
export function createGrepTool(options: GrepToolOptions = {}) {
  return defineTool({
    name: "grep",
    description:
      `Search file contents with a regular expression, line by line (escape \\( \\. \\{ meant literally). Prints "path:line: text", at most ${MAX_GREP_MATCHES} lines. ` +
      "Skips .git, node_modules, .gitignore'd, binary and secrets files.",
    schema,
    mutates: false,
    subagents: "every",
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
      const realRoot = realpathOrSelf(ctx.root);
      if (targetIsFile && !grepMayRead(target, realRoot)) {
        throw new ToolError(`grep: ${shownTarget} is a secrets file (${SECRETS_FILES}), or leads to one, which shiro does not search.`);
      }
      if (targetIsFile && looksBinary(await Bun.file(target).slice(0, BINARY_SNIFF_BYTES).bytes())) {
        return { output: `${shownTarget} is a binary file; grep only searches text.`, summary: "binary file" };
      }

      const base = targetIsFile ? dirname(target) : target;
      const include = input.include?.replace(/^(\.\/)+/, "");
      const includeGlob = include ? new Bun.Glob(include) : undefined;
      const accept = (file: string) => {
        if (!grepMayRead(file, realRoot)) return false;
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
      const commands = options.commands ?? defaultCommands(ctx.root);
      const rg = options.findRipgrep ? options.findRipgrep() : (commands.helper("rg") ?? null);
      const { matches, limitReached } = rg ? await searchRipgrep(commands.runner, rg, query) : await searchBuiltin(query);
      return render(matches, limitReached, input.pattern, shownTarget, (file) => displayPath(ctx, file));
    },
  });
}

export const grepTool = createGrepTool();

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
