import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { argumentChoices, commandsStartingWith } from "./slash-commands.ts";
import { createIgnoreFilter } from "../fs/ignore-filter.ts";
import { walk } from "../fs/walk.ts";
import { isInside } from "../fs/workspace.ts";

/** Most candidates offered for one Tab. */
export const MAX_CANDIDATES = 50;
/** Entries the workspace-wide `@name` search looks at before giving up (huge trees stay fast). */
const MAX_WALKED_ENTRIES = 20_000;

/** The word at the cursor, what it could become, and where it sits in the line. */
export type Completion = {
  kind: "command" | "argument" | "path";
  /** The word being completed spans [start, end) of the line. */
  start: number;
  end: number;
  /** Whole replacement words: `/help`, `@src/`, `@src/main.ts`. Directories end with "/". */
  candidates: string[];
};

export type CompleteOptions = {
  /** Workspace root: paths outside it are never offered. */
  root: string;
  /** Relative `@` paths start here. */
  cwd: string;
  /** Choices known only at run time for a command's argument (`/model <tab>`: the ids the server listed). */
  choices?: (command: string) => readonly string[];
  /** Names of the custom commands (without their slash), offered after the built-in ones. */
  commands?: readonly string[];
  /** The custom commands' descriptions, by name (the list `/` opens shows them). */
  descriptions?: Readonly<Record<string, string>>;
  /** MCP servers with resources and the URIs each listed: `@server:` then its URIs complete. */
  resources?: () => readonly { server: string; uris: readonly string[] }[];
};

/**
 * What Tab could complete at `cursor`: a slash command when the line starts with `/` and the
 * cursor is still in that first word, or a workspace path after `@` at the start of a word
 * (`foo@bar` is not a path). Paths honour .gitignore and skip .git and node_modules; dot entries
 * are offered only when the typed name starts with a dot. `@name` with no directory part also
 * finds files of that name anywhere below cwd. Undefined when there is nothing to complete.
 */
export function findCompletion(line: string, cursor: number, opts: CompleteOptions): Completion | undefined {
  let start = cursor;
  while (start > 0 && !/\s/.test(line[start - 1]!)) start--;
  let end = cursor;
  while (end < line.length && !/\s/.test(line[end]!)) end++;
  const word = line.slice(start, cursor);
  if (start === 0 && word.startsWith("/")) {
    const candidates = commandsStartingWith(word, opts.commands);
    return candidates.length > 0 ? { kind: "command", start, end, candidates } : undefined;
  }
  const argument = /^\/(\w+) $/.exec(line.slice(0, start));
  if (argument && !word.startsWith("@")) {
    const command = argument[1]!.toLowerCase();
    const candidates = [...argumentChoices(command), ...(opts.choices?.(command) ?? [])].filter((choice) => choice.startsWith(word)).slice(0, MAX_CANDIDATES);
    return candidates.length > 0 ? { kind: "argument", start, end, candidates } : undefined;
  }
  if (!word.startsWith("@")) return undefined;
  const candidates = [...resourceCandidates(word.slice(1), opts), ...pathCandidates(word.slice(1), opts).map((path) => `@${path}`)].slice(0, MAX_CANDIDATES);
  return candidates.length > 0 ? { kind: "path", start, end, candidates } : undefined;
}

/**
 * The line after choosing `candidate`: the word is replaced and the cursor put after it. A
 * finished choice (a command, a file) gets a trailing space; a directory does not, so Tab can go on.
 */
export function applyCompletion(line: string, completion: Completion, candidate: string): { line: string; cursor: number } {
  const finished = !candidate.endsWith("/") && !/^@[\w-]+:$/.test(candidate); // a directory, or `@server:` before its URIs
  const after = line.slice(completion.end);
  const spacer = finished && !after.startsWith(" ") ? " " : "";
  const inserted = candidate + spacer;
  return { line: line.slice(0, completion.start) + inserted + after, cursor: completion.start + candidate.length + (finished ? 1 : 0) };
}

/** The longest string every candidate starts with. */
export function commonPrefix(candidates: readonly string[]): string {
  if (candidates.length === 0) return "";
  let prefix = candidates[0]!;
  for (const candidate of candidates) {
    while (!candidate.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}

/** `@ser` → `@server:` for servers with resources; `@server:lib://g` → that server's URIs starting so. */
function resourceCandidates(typed: string, opts: CompleteOptions): string[] {
  const servers = opts.resources?.() ?? [];
  const colon = typed.indexOf(":");
  if (colon === -1) return servers.filter((s) => s.server.startsWith(typed)).map((s) => `@${s.server}:`);
  const server = servers.find((s) => s.server === typed.slice(0, colon));
  const rest = typed.slice(colon + 1);
  // A URI is the server's word: one with a space or a control character could not be typed as one mention, nor shown safely.
  return server ? server.uris.filter((uri) => uri.startsWith(rest) && !/[\s\x00-\x1f\x7f-\x9f]/.test(uri)).map((uri) => `@${server.server}:${uri}`) : [];
}

function pathCandidates(typed: string, opts: CompleteOptions): string[] {
  const slash = typed.lastIndexOf("/");
  const dirPart = slash === -1 ? "" : typed.slice(0, slash + 1);
  const base = slash === -1 ? typed : typed.slice(slash + 1);
  const dir = resolve(opts.cwd, dirPart || ".");
  if (!isInside(opts.root, dir)) return [];
  const filter = createIgnoreFilter(opts.root);
  const showDots = base.startsWith(".");
  const near: string[] = [];
  try {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (!showDots && entry.name.startsWith(".")) continue;
      if (!entry.name.startsWith(base)) continue;
      const isDir = entry.isDirectory();
      if (filter.isIgnored(join(dir, entry.name), isDir)) continue;
      near.push(dirPart + entry.name + (isDir ? "/" : ""));
    }
  } catch {
    return [];
  }
  if (dirPart || !base) return near.slice(0, MAX_CANDIDATES);
  // `@conver` finds lib/agent/conversation.ts: names that start with what was typed, anywhere below cwd.
  const far: string[] = [];
  let seen = 0;
  const lowerBase = base.toLowerCase();
  for (const entry of walk(opts.cwd, filter)) {
    if (++seen > MAX_WALKED_ENTRIES || near.length + far.length >= MAX_CANDIDATES) break;
    if (entry.depth === 1 || (!showDots && entry.name.startsWith("."))) continue;
    if (!entry.name.toLowerCase().startsWith(lowerBase)) continue;
    far.push(entry.rel + (entry.kind === "dir" ? "/" : ""));
  }
  return [...near, ...far].slice(0, MAX_CANDIDATES);
}
