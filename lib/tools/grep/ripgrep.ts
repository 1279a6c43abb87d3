import { streamLines } from "../../fs/stream-lines.ts";
import { ToolError } from "../../errors.ts";
import type { CommandRunner } from "../../sandbox/index.ts";
import { MATCH_TEXT_BYTES, type GrepMatch, type GrepQuery, type GrepResult } from "./builtin.ts";

/**
 * Flags that make ripgrep find what the built-in search finds: hidden files included, .git and
 * node_modules skipped, .gitignore honoured outside git repositories too, and no other ignore
 * sources (.ignore, .rgignore, the global gitignore, .git/info/exclude, config files). One known
 * difference: ripgrep also reads .gitignore files above the workspace root. The output is one
 * line a match, `path NUL number:text`, and a line longer than MATCH_TEXT_BYTES is printed only up
 * to there (`--max-columns`): `--json` has no such cap, and a 10 MB line of `a` searched for
 * `a{5}` made 120 MB of JSON (2 million submatches) for shiro to read.
 */
const RG_FLAGS = [
  "--no-heading",
  "--with-filename",
  "--line-number",
  "--null",
  "--color=never",
  `--max-columns=${MATCH_TEXT_BYTES}`,
  "--max-columns-preview",
  "--sort=path",
  "--hidden",
  "--no-config",
  "--no-require-git",
  "--no-ignore-dot",
  "--no-ignore-global",
  "--no-ignore-exclude",
  "--glob=!.git",
  "--glob=!node_modules",
];

/** How ripgrep ends a line it cut at --max-columns. */
const OMITTED = " [... omitted end of long line]";

/**
 * Grep through ripgrep at `rgPath`. The include glob and the secrets rule are applied to the
 * results (query.accept), not passed as --glob: ripgrep lets a --glob override .gitignore, the
 * built-in search does not. ripgrep is stopped as soon as the limit is passed, the signal aborts
 * or query.timeLimitMs has passed (`timedOut`, with the matches found until then).
 * It runs through `runner` (the sandbox, when on) and gets no option the model chose: the
 * pattern goes after `--regexp` and the path after `--`, so `--pre` or `--files` in either is text.
 */
export async function searchRipgrep(runner: CommandRunner, rgPath: string, query: GrepQuery): Promise<GrepResult> {
  const args = [...RG_FLAGS, ...(query.ignoreCase ? ["--ignore-case"] : []), "--regexp", query.pattern, "--", query.target];
  const proc = runner.spawn([rgPath, ...args], { cwd: query.root });
  let timedOut = false;
  const stop = () => void proc.stop();
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, query.timeLimitMs);
  query.signal.addEventListener("abort", stop, { once: true });
  const stderr = new Response(proc.stderr).text();
  const matches: GrepMatch[] = [];
  const accepted = new Map<string, boolean>();
  let limitReached = false;
  try {
    for await (const line of streamLines(proc.stdout)) {
      const match = parseMatch(line);
      if (!match) continue;
      let ok = accepted.get(match.file);
      if (ok === undefined) accepted.set(match.file, (ok = query.accept(match.file)));
      if (!ok) continue;
      if (matches.length === query.limit) {
        limitReached = true;
        stop();
        break;
      }
      matches.push(match);
    }
  } finally {
    clearTimeout(timer);
    query.signal.removeEventListener("abort", stop);
  }
  const { exitCode } = await proc.exited;
  if (exitCode === 2 && matches.length === 0 && !limitReached && !timedOut && !query.signal.aborted) {
    const message = (await stderr).trim().replace(/\s+/g, " ");
    if (/regex|pattern/i.test(message)) {
      throw new ToolError(`grep: ripgrep rejected the pattern: ${message}. Simplify it (no look-around or backreferences).`);
    }
  }
  return { matches, limitReached, timedOut };
}

/** `path NUL number:text`; the paths are absolute (the target is), so a line without NUL is no match. */
function parseMatch(line: string): GrepMatch | undefined {
  const nul = line.indexOf("\0");
  if (nul < 0) return undefined;
  const rest = line.slice(nul + 1);
  const colon = rest.indexOf(":");
  const number = Number(rest.slice(0, colon));
  if (colon < 1 || !Number.isInteger(number)) return undefined;
  let text = rest.slice(colon + 1).replace(/\r$/, "");
  const cut = text.endsWith(OMITTED);
  if (cut) text = text.slice(0, -OMITTED.length);
  return { file: line.slice(0, nul), line: number, text, ...(cut ? { cut: true } : {}) };
}
