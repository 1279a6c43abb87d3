import { THINKING_LEVELS, VARIANT_NAMES } from "../config/variants.ts";
import { APPROVAL_MODES } from "../config/permission-schema.ts";
import { editDistance } from "../text/edit-distance.ts";
import { termRows } from "../text/term-list.ts";
import type { CustomCommand, RejectedCommand } from "./custom-commands.ts";

/**
 * The interactive loop's slash commands. This one table feeds parsing, `/help` and Tab
 * completion, so a command cannot exist in one and be missing from another.
 */
export const SLASH_COMMANDS = [
  { name: "help", args: "", summary: "list commands and keys" },
  { name: "todos", args: "", summary: "show the task list" },
  { name: "goal", args: "[objective]", summary: "work across turns until a goal is met: /goal <objective> --until cmd --max-turns n; clear, resume; alone: show it" },
  { name: "notes", args: "", summary: "list the project notes shiro remembers here" },
  { name: "memory", args: "", summary: "compact the project notes: the model merges duplicates and stale ones" },
  { name: "compact", args: "[focus]", summary: "replace the conversation with the model's summary of it, now (focus: what the summary must keep)" },
  { name: "init", args: "[focus]", summary: "have the model write (or improve) AGENTS.md from the repository (focus: what to stress); you approve the edit" },
  { name: "cost", args: "", summary: "what this session has spent (tokens billed, the cost) and the next request's size" },
  { name: "undo", args: "[files|conversation]", summary: "take back the last turn: its file changes and the conversation" },
  { name: "rewind", args: "[n] [how]", summary: "go back to just before an earlier prompt; how: all, conversation, files, or fork (in a copy). Alone: pick (esc esc at an empty prompt)" },
  { name: "fork", args: "", summary: "go on in a copy of this session (a new id); this one stays as it is" },
  { name: "diff", args: "[session]", summary: "what the last turn changed in the files (session: the whole session)" },
  { name: "jobs", args: "", summary: "list the background jobs with their last lines" },
  { name: "kill", args: "<id>", summary: "stop a background job with every process it started" },
  { name: "last", args: "", summary: "show the last tool result or !cmd output whole (through $PAGER when set)" },
  { name: "transcript", args: "", summary: "the whole session in a pager: every call's full input and output, reasoning, !cmd runs (ctrl-o)" },
  { name: "sessions", args: "[--all]", summary: "list this directory's saved sessions (--all: every directory's)" },
  { name: "resume", args: "[id]", summary: "switch to a saved session (no id: pick one of this directory's)" },
  { name: "save", args: "", summary: "save this session now" },
  { name: "clear", args: "", summary: "start a new empty conversation (clears the task list)" },
  { name: "model", args: "[id]", summary: "switch the model (no id: pick from the server's list; tab completes ids once listed)" },
  { name: "agent", args: "[name]", summary: "switch the agent variant (no name: list them; tab picks)" },
  { name: "think", args: "[level]", summary: "set the thinking level (no level: show it; tab picks)" },
  { name: "mode", args: "[ask|edits|auto|plan]", summary: "how much shiro asks before edits and commands, or plan first (no mode: show it; shift-tab cycles)" },
  { name: "reasoning", args: "", summary: "show the last reasoning block in full" },
  { name: "skills", args: "", summary: "list the skills the model can load, and where each came from" },
  { name: "mcp", args: "[login|logout name]", summary: "list the MCP servers: state, sign-in, tools, errors; login or logout signs in to a remote server or forgets it" },
  { name: "hooks", args: "", summary: "list the hooks: event, command, where from, last result" },
  { name: "exit", args: "", summary: "leave shiro" },
] as const satisfies readonly { name: string; args: string; summary: string }[];

/** The fixed choices a command's argument takes, for Tab: `/agent <tab>`, `/think <tab>`. */
export function argumentChoices(command: string): string[] {
  if (command === "agent") return [...VARIANT_NAMES];
  if (command === "think") return [...THINKING_LEVELS];
  if (command === "mode") return [...APPROVAL_MODES, "plan"];
  if (command === "undo") return ["files", "conversation"];
  if (command === "diff") return ["session"];
  if (command === "goal") return ["clear", "resume"];
  if (command === "mcp") return ["login", "logout"];
  return [];
}

export type SlashName = (typeof SLASH_COMMANDS)[number]["name"];

export type ParsedInput =
  | { type: "prompt"; text: string }
  | { type: "command"; name: SlashName; args: string }
  /** A command of the user's or the project's own (lib/prompt/custom-commands.ts). */
  | { type: "custom"; command: CustomCommand; args: string }
  /** A command file of that name exists but was not loaded (custom-commands.ts `rejected`). */
  | { type: "not-loaded"; command: RejectedCommand }
  /** `closest` is a built-in command's name or a custom one's; absent when none is near (see closestCommand). */
  | { type: "unknown"; name: string; closest?: string };

/**
 * What a submitted line is. A line whose first word is `/name` is a command; `/usr/bin/env is
 * broken` (a second slash in the first word) is a prompt that happens to start with a path.
 * Command names are case-insensitive. Built-in commands come first, then `custom` ones, then the
 * files of `rejected` commands (so `/review` can say why it is missing). Pure.
 */
export function parseInput(line: string, custom: readonly CustomCommand[] = [], rejected: readonly RejectedCommand[] = []): ParsedInput {
  const trimmed = line.trim();
  const match = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(trimmed);
  if (!match) return { type: "prompt", text: line };
  const name = match[1]!.toLowerCase();
  const args = (match[2] ?? "").trim();
  const known = SLASH_COMMANDS.find((command) => command.name === name);
  if (known) return { type: "command", name: known.name, args };
  const own = custom.find((command) => command.name === name);
  if (own) return { type: "custom", command: own, args };
  const broken = rejected.find((command) => command.name === name);
  if (broken) return { type: "not-loaded", command: broken };
  const closest = closestCommand(name, custom.map((command) => command.name));
  return { type: "unknown", name, ...(closest ? { closest } : {}) };
}

/**
 * The command name nearest to `name` among the built-in ones, then `custom`: a unique prefix
 * match first, then the smallest edit distance (a tie goes to the built-in) when it is small: at
 * most 2, and at most half the name (`/hlep` → help; `/foo` has no near name). Undefined when
 * nothing is that near.
 */
export function closestCommand(name: string, custom: readonly string[] = []): string | undefined {
  const lower = name.toLowerCase();
  const names = [...SLASH_COMMANDS.map((command) => command.name as string), ...custom];
  const prefixed = names.filter((candidate) => candidate.startsWith(lower));
  if (prefixed.length === 1) return prefixed[0]!;
  let best = names[0]!;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of names) {
    const distance = editDistance(lower, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= Math.min(2, Math.ceil(lower.length / 2)) ? best : undefined;
}

/** The one-line answer to an unknown command. */
export function unknownCommandHint(name: string, closest: string | undefined): string {
  if (closest === undefined) return `unknown command /${name}. /help lists them all.`;
  return `unknown command /${name}. Did you mean /${closest}? (/help lists them all)`;
}

/**
 * The usage line for words typed after a command that takes none (`/cost extra words`), or
 * undefined when the command takes arguments or none were typed. The command does not run:
 * words the user meant for it are not silently dropped.
 */
export function extraWordsHint(name: SlashName, args: string): string | undefined {
  const row = SLASH_COMMANDS.find((command) => command.name === name);
  if (!row || row.args !== "" || args.trim() === "") return undefined;
  const words = args.trim().replace(/\s+/g, " ");
  const quoted = words.length > 40 ? words.slice(0, 39) + "…" : words;
  return `usage: /${name}, with nothing after it (not "${quoted}"); it was not run.`;
}

/**
 * The one-line answer to a custom command whose file was not used: what is wrong, where, and
 * what to do (`next`: how to try again from where the user is).
 */
export function notLoadedHint(command: RejectedCommand, next = "fix the file, then start shiro again"): string {
  return `/${command.name} was not loaded: ${command.why} (${command.source}). To use it, ${next}.`;
}

/** A command's one line for the list `/` opens: a built-in's summary, or a custom command's description from `custom` (name → description). */
export function commandSummary(nameWithSlash: string, custom: Readonly<Record<string, string>> = {}): string | undefined {
  const name = nameWithSlash.replace(/^\//, "");
  return SLASH_COMMANDS.find((command) => command.name === name)?.summary ?? custom[name];
}

/** Names, with their slash, that start with `prefix` (which may itself start with "/"): built-in, then `custom`. */
export function commandsStartingWith(prefix: string, custom: readonly string[] = []): string[] {
  const bare = prefix.replace(/^\//, "").toLowerCase();
  return [...SLASH_COMMANDS.map((command) => command.name), ...custom].filter((name) => name.startsWith(bare)).map((name) => `/${name}`);
}

/**
 * The `/help` listing for a width of `width` columns (termRows: descriptions beside the commands
 * in an aligned column, or under each command when that column would be too narrow). Without a
 * width, one aligned line per command.
 */
export function commandHelpLines(width = Number.POSITIVE_INFINITY): string[] {
  return termRows(
    SLASH_COMMANDS.map((command) => [`/${command.name}${command.args ? " " + command.args : ""}`, command.summary] as const),
    width,
  );
}

/** `/help`'s lines for custom commands: name, description, and the file it comes from, laid out as commandHelpLines. */
export function customHelpLines(custom: readonly CustomCommand[], width = Number.POSITIVE_INFINITY): string[] {
  return termRows(
    custom.map((command) => [`/${command.name}`, `${command.description} (${command.source})`] as const),
    width,
  );
}
