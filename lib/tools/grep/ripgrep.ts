import { streamLines } from "../../fs/stream-lines.ts";
import { ToolError } from "../../errors.ts";
import type { CommandRunner } from "../../sandbox/index.ts";
import type { GrepMatch, GrepQuery, GrepResult } from "./builtin.ts";

/**
 * Flags that make ripgrep find what the built-in search finds: hidden files included, .git and
 * node_modules skipped, .gitignore honoured outside git repositories too, and no other ignore
 * sources (.ignore, .rgignore, the global gitignore, .git/info/exclude, config files). One known
 * difference: ripgrep also reads .gitignore files above the workspace root.
 */
const RG_FLAGS = [
  "--json",
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

/**
 * Grep through ripgrep at `rgPath`. The include glob and the secrets rule are applied to the
 * results (query.accept), not passed as --glob: ripgrep lets a --glob override .gitignore, the
 * built-in search does not. ripgrep is stopped as soon as the limit is passed or the signal aborts.
 * It runs through `runner` (the sandbox, when on) and gets no option the model chose: the
 * pattern goes after `--regexp` and the path after `--`, so `--pre` or `--files` in either is text.
 */
export async function searchRipgrep(runner: CommandRunner, rgPath: string, query: GrepQuery): Promise<GrepResult> {
  const args = [...RG_FLAGS, ...(query.ignoreCase ? ["--ignore-case"] : []), "--regexp", query.pattern, "--", query.target];
  const proc = runner.spawn([rgPath, ...args], { cwd: query.root });
  const stop = () => void proc.stop();
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
    query.signal.removeEventListener("abort", stop);
  }
  const { exitCode } = await proc.exited;
  if (exitCode === 2 && matches.length === 0 && !limitReached && !query.signal.aborted) {
    const message = (await stderr).trim().replace(/\s+/g, " ");
    if (/regex|pattern/i.test(message)) {
      throw new ToolError(`grep: ripgrep rejected the pattern: ${message}. Simplify it (no look-around or backreferences).`);
    }
  }
  return { matches, limitReached };
}

type RgText = { text?: string; bytes?: string };

function parseMatch(line: string): GrepMatch | undefined {
  let message: { type?: string; data?: { path?: RgText; lines?: RgText; line_number?: number } };
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (message.type !== "match" || !message.data?.path || !message.data.lines) return undefined;
  const file = textOf(message.data.path);
  const text = textOf(message.data.lines).replace(/\r?\n$/, "");
  return { file, line: message.data.line_number ?? 0, text };
}

/** ripgrep sends text that is not valid UTF-8 as base64 bytes. */
function textOf(value: RgText): string {
  return value.text ?? Buffer.from(value.bytes ?? "", "base64").toString("utf8");
}
