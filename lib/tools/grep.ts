import { basename, dirname, relative, sep } from "node:path";
import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { BINARY_SNIFF_BYTES, looksBinary } from "../fs/binary.ts";
import { readConfined, readLinesConfined } from "../fs/confined-ops.ts";
import { defineTool } from "./define.ts";
import { MAX_BUILTIN_FILE_BYTES, searchBuiltin, type GrepMatch, type GrepQuery, type GrepResult } from "./grep/builtin.ts";
import { searchRipgrep } from "./grep/ripgrep.ts";
import { clipLine, plural } from "../text/lines.ts";
import { describeMissing, statIfExists } from "../fs/missing-path.ts";
import { isSensitivePath, SECRETS_FILES } from "../fs/sensitive-path.ts";
import { displayPath, isInside, realpathOrSelf, resolveInWorkspace } from "../fs/workspace.ts";
import type { Commands } from "../sandbox/index.ts";
import { defaultCommands } from "./commands.ts";

export const MAX_GREP_MATCHES = 250;
export const MAX_GREP_LINE_CHARS = 300;
/** How long one grep call may search; past it, the matches found so far come back with a note. */
export const GREP_TIME_LIMIT_MS = 20_000;

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
  /** How long one call may search (GREP_TIME_LIMIT_MS). */
  timeLimitMs?: number;
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
      if (!stats) throw new ToolError(`grep: ${describeMissing(ctx.root, target, shownTarget)}`);
      const targetIsFile = !stats.isDirectory();
      const realRoot = realpathOrSelf(ctx.root);
      if (targetIsFile && !grepMayRead(target, realRoot)) {
        throw new ToolError(`grep: ${shownTarget} is a secrets file (${SECRETS_FILES}), or leads to one, which shiro does not search.`);
      }
      if (targetIsFile && looksBinary(readConfined({ root: ctx.root, tool: "grep" }, target, { head: BINARY_SNIFF_BYTES }).bytes ?? new Uint8Array())) {
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
        timeLimitMs: options.timeLimitMs ?? GREP_TIME_LIMIT_MS,
        signal: ctx.signal,
      };
      const commands = options.commands ?? defaultCommands(ctx.root);
      const rg = options.findRipgrep ? options.findRipgrep() : (commands.helper("rg") ?? null);
      const result = rg ? await searchRipgrep(commands.runner, rg, query) : await searchBuiltin(query);
      const matches = confirmedInside(result.matches, ctx.root);
      return render({ ...result, matches }, query.timeLimitMs, input.pattern, shownTarget, (file) => displayPath(ctx, file));
    },
  });
}

export const grepTool = createGrepTool();

/**
 * The matches whose line is in the file as it is reached inside the workspace now (lib/fs/confined.ts):
 * the engines open files by path, so a folder swapped for a link leading out while they run could
 * otherwise put an outside file's lines (a secret) in the result. Each file is read once more,
 * through the workspace root and only as far as its last match, and a line shown only when it is
 * there at that number.
 */
function confirmedInside(matches: GrepMatch[], root: string): GrepMatch[] {
  const needed = new Map<string, number>();
  for (const m of matches) needed.set(m.file, Math.max(needed.get(m.file) ?? 0, m.line));
  const lines = new Map<string, string[] | undefined>();
  for (const [file, upTo] of needed) {
    try {
      lines.set(file, readLinesConfined({ root }, file, upTo));
    } catch {
      lines.set(file, undefined); // leads out, or a secrets file, now: nothing of it is shown
    }
  }
  return matches.filter((m) => {
    const line = lines.get(m.file)?.[m.line - 1]?.replace(/\r$/, "");
    // A cut line may end inside a character the engine could not decode whole.
    return line !== undefined && (m.cut ? line.startsWith(m.text.replace(/\uFFFD+$/, "")) : line === m.text);
  });
}

/** A matching line as shown: at most MAX_GREP_LINE_CHARS, saying when it was cut. */
function shownLine(match: GrepMatch): string {
  if (!match.cut) return clipLine(match.text, MAX_GREP_LINE_CHARS);
  return `${match.text.slice(0, MAX_GREP_LINE_CHARS)}… [long line cut]`;
}

function render(result: GrepResult, timeLimitMs: number, pattern: string, shownTarget: string, show: (file: string) => string) {
  const { matches, limitReached, timedOut, tooLarge } = result;
  const notes = [
    limitReached ? `[Stopped at ${MAX_GREP_MATCHES} matching lines; there are more. Narrow the pattern, path or include to see the rest.]` : "",
    timedOut ? `[Stopped after ${timeLimitMs / 1000} s, with what was found by then; the search did not finish. Narrow the path or include, or simplify the pattern.]` : "",
    tooLarge ? `[Skipped ${plural(tooLarge, "file")} over ${MAX_BUILTIN_FILE_BYTES / 1024 / 1024} MB.]` : "",
    matches.some((m) => m.cut || m.text.length > MAX_GREP_LINE_CHARS) ? `[Lines over ${MAX_GREP_LINE_CHARS} characters are shown cut; read_file shows more of a line.]` : "",
  ].filter(Boolean);
  const cut = timedOut ? ", stopped at the time limit" : "";
  if (matches.length === 0) {
    const where = shownTarget === "." ? "the working directory" : shownTarget;
    const none = `No matches for ${JSON.stringify(pattern)} in ${where}${timedOut ? " before the time limit" : ""}.`;
    return { output: [none, ...notes].join("\n\n"), summary: `no matches${cut}` };
  }
  const lines = matches.map((m) => `${show(m.file)}:${m.line}: ${shownLine(m)}`);
  const files = new Set(matches.map((m) => m.file)).size;
  const count = `${limitReached ? "over " : ""}${plural(matches.length, "match", "matches")} in ${plural(files, "file")}${cut}`;
  return { output: [lines.join("\n"), ...notes].join("\n\n"), summary: count };
}
