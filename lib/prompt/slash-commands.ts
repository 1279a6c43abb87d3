import { THINKING_LEVELS, VARIANT_NAMES } from "../config/variants.ts";
import { editDistance } from "../text/edit-distance.ts";

/**
 * The interactive loop's slash commands. This one table feeds parsing, `/help` and Tab
 * completion, so a command cannot exist in one and be missing from another.
 */
export const SLASH_COMMANDS = [
  { name: "help", args: "", summary: "list commands and keys" },
  { name: "todos", args: "", summary: "show the task list" },
  { name: "notes", args: "", summary: "list the project notes shiro remembers here" },
  { name: "memory", args: "", summary: "compact the project notes: the model merges duplicates and stale ones" },
  { name: "compact", args: "", summary: "replace the conversation with the model's summary of it, now" },
  { name: "cost", args: "", summary: "tokens billed in this session, and the cost" },
  { name: "undo", args: "[files|conversation]", summary: "take back the last turn: its file changes and the conversation" },
  { name: "diff", args: "[session]", summary: "what the last turn changed in the files (session: the whole session)" },
  { name: "last", args: "", summary: "show the last tool result whole (through $PAGER when set)" },
  { name: "sessions", args: "[--all]", summary: "list this directory's saved sessions (--all: every directory's)" },
  { name: "resume", args: "[id]", summary: "switch to a saved session (no id: pick one of this directory's)" },
  { name: "save", args: "", summary: "save this session now" },
  { name: "clear", args: "", summary: "start a new empty conversation (clears the task list)" },
  { name: "model", args: "<id>", summary: "switch the model (no id: show the current one)" },
  { name: "agent", args: "[name]", summary: "switch the agent variant (no name: list them; tab picks)" },
  { name: "think", args: "[level]", summary: "set the thinking level (no level: show it; tab picks)" },
  { name: "reasoning", args: "", summary: "show the last reasoning block in full" },
  { name: "mcp", args: "", summary: "list the MCP servers: state, tools, errors" },
  { name: "exit", args: "", summary: "leave shiro" },
] as const satisfies readonly { name: string; args: string; summary: string }[];

/** The fixed choices a command's argument takes, for Tab: `/agent <tab>`, `/think <tab>`. */
export function argumentChoices(command: string): string[] {
  if (command === "agent") return [...VARIANT_NAMES];
  if (command === "think") return [...THINKING_LEVELS];
  if (command === "undo") return ["files", "conversation"];
  if (command === "diff") return ["session"];
  return [];
}

export type SlashName = (typeof SLASH_COMMANDS)[number]["name"];

export type ParsedInput =
  | { type: "prompt"; text: string }
  | { type: "command"; name: SlashName; args: string }
  | { type: "unknown"; name: string; closest: SlashName };

/**
 * What a submitted line is. A line whose first word is `/name` is a command; `/usr/bin/env is
 * broken` (a second slash in the first word) is a prompt that happens to start with a path.
 * Command names are case-insensitive. Pure.
 */
export function parseInput(line: string): ParsedInput {
  const trimmed = line.trim();
  const match = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(trimmed);
  if (!match) return { type: "prompt", text: line };
  const name = match[1]!.toLowerCase();
  const args = (match[2] ?? "").trim();
  const known = SLASH_COMMANDS.find((command) => command.name === name);
  if (known) return { type: "command", name: known.name, args };
  return { type: "unknown", name, closest: closestCommand(name) };
}

/** The command name nearest to `name`: a unique prefix match first, then the smallest edit distance. */
export function closestCommand(name: string): SlashName {
  const lower = name.toLowerCase();
  const prefixed = SLASH_COMMANDS.filter((command) => command.name.startsWith(lower));
  if (prefixed.length === 1) return prefixed[0]!.name;
  let best: SlashName = SLASH_COMMANDS[0].name;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const command of SLASH_COMMANDS) {
    const distance = editDistance(lower, command.name);
    if (distance < bestDistance) {
      best = command.name;
      bestDistance = distance;
    }
  }
  return best;
}

/** The one-line answer to an unknown command. */
export function unknownCommandHint(name: string, closest: SlashName): string {
  return `unknown command /${name}. Did you mean /${closest}? (/help lists them all)`;
}

/** Names, with their slash, that start with `prefix` (which may itself start with "/"). */
export function commandsStartingWith(prefix: string): string[] {
  const bare = prefix.replace(/^\//, "").toLowerCase();
  return SLASH_COMMANDS.filter((command) => command.name.startsWith(bare)).map((command) => `/${command.name}`);
}

/** The `/help` listing: one aligned line per command. */
export function commandHelpLines(): string[] {
  const usage = SLASH_COMMANDS.map((command) => `/${command.name}${command.args ? " " + command.args : ""}`);
  const width = Math.max(...usage.map((u) => u.length)) + 2;
  return SLASH_COMMANDS.map((command, i) => `${usage[i]!.padEnd(width)}${command.summary}`);
}
