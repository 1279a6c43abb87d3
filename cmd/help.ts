import { MAIN_ARGS, type FlagDef, type FlagTable } from "./args.ts";

/**
 * The --help text. The option list is rendered from MAIN_ARGS, so a flag added to the table is
 * documented by that alone; the rest is fixed. Cheap: printing it loads nothing but the table.
 */
export function helpText(version: string): string {
  return `shiro ${version} — a coding agent for your terminal

Usage:
  shiro                         start an interactive session in this directory
  shiro -p "prompt"             run one prompt headless and exit
  git diff | shiro -p "review"  piped stdin is added to the prompt
  shiro -c [-p "prompt"]        continue the newest session in this directory
  shiro -r <id> [-p "prompt"]   resume a session by id or unique prefix
  shiro -r                      pick one of this directory's sessions to resume
  shiro sessions [list|show|rm|export|compact|repair]   saved sessions, for scripts
  shiro doctor [--write]        check the set-up (key, server, model, ripgrep, sandbox) and the newest session
  shiro undo [<session>]        take back a session's last turn (files and conversation)
  shiro rewind <session> --to <n>  take a session back to just before its prompt n
  shiro memory list|forget|path|compact   project memory, for scripts
  shiro config [get|set|unset <key>]   the settings in effect and where each came from; read or change one
  shiro mcp login|logout <server>   sign in to a remote MCP server with OAuth (opens the browser), or forget it
  shiro help [<topic>]          the guides, built in (permissions, headless, …); alone, it lists them
  shiro <command> --help        a command's own options
  shiro [flags] -- <prompt>     a prompt whose first word names a command (undo, doctor, help <topic>, …)

Options:
${optionLines(MAIN_ARGS)}

Environment:
  SHIRO_API_KEY / OPENAI_API_KEY   the API key (not needed for a server on localhost)
  SHIRO_HOME                       where shiro keeps its files (default ~/.shiro-neko)

Exit codes: 0 success, 1 provider or model error, 2 usage or configuration error,
3 step cap reached, 4 spend ceiling reached, 5 goal not met within its budget,
130 interrupted.
`;
}

/** A sub-command's --help: its usage line and its options, from its table. */
export function commandHelp(usage: string, table: FlagTable): string {
  return `${usage}\n\nOptions:\n${optionLines(table)}\n`;
}

/**
 * One line per flag, descriptions aligned: `  -m, --model <id>   model id …`. A flag whose default
 * is true is shown the way it is used, as `--no-<name>`.
 */
export function optionLines(table: FlagTable): string {
  const rows = Object.entries(table).map(([name, def]) => [optionSyntax(name, def), optionDescription(def)] as const);
  const width = Math.max(...rows.map(([syntax]) => syntax.length)) + 3;
  return rows.map(([syntax, description]) => `${syntax.padEnd(width)}${description}`).join("\n");
}

function optionSyntax(name: string, def: FlagDef): string {
  if (def.type === "boolean" && def.default === true) return `      --no-${name}`;
  const short = def.alias ? `-${def.alias}, ` : "    ";
  if (def.type === "boolean") return `  ${short}--${name}`;
  return `  ${short}--${name} <${def.valueHint}>`;
}

function optionDescription(def: FlagDef): string {
  return def.type === "boolean" && def.default === true ? (def.negativeDescription ?? `turn off: ${def.description}`) : def.description;
}
