/**
 * A server's prompts (MCP `prompts/list`, `prompts/get`) as slash commands:
 * `/mcp__<server>__<prompt> args…`. Pure: the command's name, its usage line, and the typed
 * words as the prompt's arguments (in the declared order, or `name=value`).
 */
import { termRows } from "../text/term-list.ts";
import type { McpResourceContents } from "./resources.ts";

export type McpPromptArgument = { name: string; description?: string; required: boolean };
export type McpPromptInfo = { name: string; title?: string; description?: string; arguments: McpPromptArgument[] };
export type McpPromptContent =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; data: string; mimeType: string }
  | { type: "resource"; resource: McpResourceContents }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string };
export type McpPromptMessage = { role: "user" | "assistant"; content: McpPromptContent };
export type McpPromptResult = { description?: string; messages: McpPromptMessage[] };

export type PromptAccess = {
  /** The prompts as last listed (at connection, and again when the server says they changed). */
  list(): McpPromptInfo[];
  get(name: string, args: Record<string, string>, signal: AbortSignal): Promise<McpPromptResult>;
};

/** A server's prompt, with the command that runs it (without its slash). */
export type ServerPrompt = { server: string; prompt: McpPromptInfo; command: string };

export function promptCommand(server: string, prompt: string): string {
  return `mcp__${server}__${prompt.replace(/[^A-Za-z0-9_.-]/g, "_")}`; // what one can type, and safe to print
}

/** `usage: /mcp__docs__review <file> [focus]`: required arguments in <>, optional ones in []. */
export function promptUsage(entry: ServerPrompt): string {
  const args = entry.prompt.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`));
  return `/${entry.command}${args.length ? " " + args.join(" ") : ""}`;
}

/** The prompt a typed line runs, and the words after its name; undefined when the line names none of `prompts`. */
export function findPromptCommand(line: string, prompts: readonly ServerPrompt[]): { entry: ServerPrompt; words: string } | undefined {
  const match = /^\/(mcp__\S+)(?:\s+([\s\S]*))?$/i.exec(line.trim());
  if (!match) return undefined;
  const name = match[1]!.toLowerCase();
  const entry = prompts.find((p) => p.command.toLowerCase() === name);
  return entry ? { entry, words: (match[2] ?? "").trim() } : undefined;
}

/**
 * The typed words as the prompt's arguments: `name=value` for a declared argument, else the next
 * argument not yet given, in the declared order. An error (one line, with the usage) for a missing
 * required argument or more words than arguments.
 */
export function promptArguments(entry: ServerPrompt, words: readonly string[]): { args: Record<string, string> } | { error: string } {
  const declared = entry.prompt.arguments;
  const args: Record<string, string> = {};
  const positional: string[] = [];
  for (const word of words) {
    const named = /^([^=\s]+)=([\s\S]*)$/.exec(word);
    if (named && declared.some((a) => a.name === named[1])) args[named[1]!] = named[2]!;
    else positional.push(word);
  }
  for (const word of positional) {
    const next = declared.find((a) => !(a.name in args));
    if (!next) return { error: serverWords(`usage: ${promptUsage(entry)} (more words than it takes: "${word}" is left over)`) };
    args[next.name] = word;
  }
  const missing = declared.filter((a) => a.required && !(a.name in args));
  if (missing.length > 0) {
    const about = missing.map((a) => `${a.name}${a.description ? `: ${a.description}` : ""}`).join("; ");
    return { error: serverWords(`usage: ${promptUsage(entry)} (missing ${missing.map((a) => a.name).join(", ")}; ${about})`) }; // the names and descriptions are the server's
  }
  return { args };
}

/** A server's words (a description, an error) as one line safe for the screen: no escape sequences, no control characters. */
export function serverWords(text: string): string {
  return Bun.stripANSI(text).replace(/[\x00-\x1f\x7f-\x9f]/g, " ").replace(/\s+/g, " ").trim();
}

/** `/help`'s lines for the servers' prompts: under each server, its commands with their descriptions. */
export function promptHelpLines(prompts: readonly ServerPrompt[], width = Number.POSITIVE_INFINITY): string[] {
  const servers = [...new Set(prompts.map((p) => p.server))];
  return servers.flatMap((server) => [
    `${server}:`,
    ...termRows(
      prompts.filter((p) => p.server === server).map((p) => [serverWords(promptUsage(p)), serverWords(p.prompt.description ?? p.prompt.title ?? "")] as const),
      width - 2,
    ).map((line) => "  " + line),
  ]);
}
