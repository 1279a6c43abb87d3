import { relative } from "node:path";
import { ToolError } from "../../errors.ts";
import { isSensitivePath } from "../../fs/sensitive-path.ts";
import { displayPath, realpathOrSelf, resolveInWorkspace } from "../../fs/workspace.ts";
import type { ToolContext } from "../define.ts";
import { pipeStream } from "../../fs/pipe-read.ts";
import { gitReadSafetyEnv } from "../../sandbox/git-safety.ts";

/** A git read gets this long before it is stopped. */
const GIT_TIMEOUT_MS = 20_000;
/** Output read from git before it is stopped: far more than a tool result keeps (30,000 characters). */
const MAX_GIT_OUTPUT_BYTES = 256 * 1024;

/**
 * How the tool wants git's output: paths as they are, no colour, no hints. What keeps a hostile
 * config from running a program is not here but in gitReadSafetyEnv (lib/sandbox/git-safety.ts),
 * the hardening every git shiro starts shares; the commands that honour them also get
 * --no-ext-diff and --no-textconv (ops.ts).
 */
const PRESENTATION = ["core.quotePath=false", "color.ui=never", "advice.statusHints=false"].flatMap((setting) => ["-c", setting]);

/** Whole-tree diffs leave secrets files out, as read_file and grep do (.env.example with them: git cannot add one back). */
export const SECRET_EXCLUDES = [":(exclude,glob,icase)**/.env", ":(exclude,glob,icase)**/.env.*", ":(exclude,glob,icase)**/*.pem"];

/**
 * Runs `git <args>` in the working directory: no shell, a fixed argument list, a clean
 * environment (no GIT_DIR, GIT_EXTERNAL_DIFF or pager from the user's shell; no prompts; no
 * optional locks, so status does not rewrite the index; no lazy fetches), the shared hardening
 * (gitReadSafetyEnv) and PRESENTATION. Returns stdout. A repository-less directory, a missing
 * git and git's own errors become ToolErrors prefixed with `tool`.
 */
export async function runGit(tool: string, args: readonly string[], ctx: ToolContext): Promise<string> {
  const { code, stdout, stderr } = await spawnGit([...PRESENTATION, ...args], ctx);
  if (code === 0) return stdout;
  const message = stderr.trim().replace(/^(fatal|error): /gm, "");
  if (/not a git repository/i.test(message)) {
    throw new ToolError(`${tool}: ${ctx.cwd} is not inside a git repository, so there is no git history to read. Use list_dir, glob and read_file instead.`);
  }
  throw new ToolError(`${tool}: git said: ${message.split("\n").slice(0, 6).join(" ") || `exit code ${code}`}`);
}

async function spawnGit(args: readonly string[], ctx: ToolContext): Promise<{ code: number; stdout: string; stderr: string }> {
  let proc;
  try {
    const env = gitEnv();
    proc = Bun.spawn(["git", "--no-pager", ...args], {
      cwd: ctx.cwd,
      env: { ...env, ...gitReadSafetyEnv(ctx.cwd, "git", env) },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new ToolError("git is not installed here, so the git tools cannot run. Use read_file, grep and glob instead.");
    throw error;
  }
  const stop = () => proc.kill();
  const timer = setTimeout(stop, GIT_TIMEOUT_MS);
  ctx.signal.addEventListener("abort", stop, { once: true });
  try {
    const [stdout, stderr, code] = await Promise.all([readCapped(pipeStream(proc.stdout), stop), new Response(pipeStream(proc.stderr)).text(), proc.exited]);
    if (ctx.signal.aborted) throw new ToolError("git: interrupted by the user.");
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", stop);
  }
}

/** Reads at most MAX_GIT_OUTPUT_BYTES, then stops git: the tool result is cut far below that anyway. */
async function readCapped(stream: ReadableStream<Uint8Array>, stop: () => void): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_GIT_OUTPUT_BYTES) {
      stop();
      break;
    }
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, MAX_GIT_OUTPUT_BYTES));
}

function gitEnv(): Record<string, string> {
  const env: Record<string, string> = {
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_NO_LAZY_FETCH: "1",
    GIT_PAGER: "cat",
    PAGER: "cat",
  };
  for (const name of ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "XDG_CONFIG_HOME", "SYSTEMROOT"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/**
 * A path argument as a pathspec: confined to the workspace, refused when it is a secrets file,
 * and marked literal so `*`, `:` and the like in it mean themselves. Relative to the working
 * directory, where git runs.
 */
export function gitPath(tool: string, path: string, ctx: ToolContext): { spec: string; shown: string } {
  const abs = resolveInWorkspace(ctx, path, tool);
  const shown = displayPath(ctx, abs);
  if (isSensitivePath(abs) || isSensitivePath(realpathOrSelf(abs))) {
    throw new ToolError(`${tool}: ${shown} is a secrets file (.env, .env.*, *.pem), which shiro does not read. Ask the user for what you need.`);
  }
  return { spec: `:(literal)${relative(ctx.cwd, abs) || "."}`, shown };
}

/** The pathspec for "everything the tools may see": the workspace root, as a literal path. */
export function workspaceSpec(ctx: ToolContext): string {
  return `:(literal)${relative(ctx.cwd, ctx.root) || "."}`;
}

/**
 * A revision argument: refused when it could be read as an option or holds a path (`HEAD:.env`
 * would print a file past the secrets rule) or anything but the characters a ref can have.
 */
export function gitRef(tool: string, ref: string): string {
  const trimmed = ref.trim();
  if (trimmed === "" || trimmed.startsWith("-") || !/^[\w./@{}~^-]+$/.test(trimmed) || trimmed.length > 200) {
    throw new ToolError(`${tool}: "${ref.slice(0, 80)}" is not a revision. Give a commit hash, branch, tag or an expression like HEAD~2; put a file in path.`);
  }
  return trimmed;
}
