import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseFrontMatter } from "../text/front-matter.ts";
import { SLASH_COMMANDS } from "./slash-commands.ts";
import { isVariantName, VARIANT_NAMES } from "../config/variants.ts";

/** A Markdown file that became `/name`: its body is the prompt, `$ARGUMENTS` and `$1`…`$9` filled in. */
export type CustomCommand = {
  name: string;
  description: string;
  /** The agent variant for the one turn it starts (front matter `agent`). */
  agent?: string;
  /** The model for that turn (front matter `model`). */
  model?: string;
  body: string;
  /** Where it was read from, as `/help` shows it: `.shiro/commands/review.md`. */
  source: string;
  /** Read from the project's folder: its body is the project's words, not the user's (attachMentions' `typed`). */
  project?: true;
};

/** A file whose name could be typed as a command but which was not used, and why (without a closing period). */
export type RejectedCommand = { name: string; source: string; why: string };

/**
 * `problems`: one line per file not used, said once at the start. `rejected`: those of them a
 * user could still type (`/review`), so typing one says why it is missing instead of "unknown".
 */
export type CustomCommandSet = {
  commands: CustomCommand[];
  problems: string[];
  rejected: RejectedCommand[];
  /** One line per command of the user's own that the project's of the same name replaces (said at the start). */
  shadowNotices: string[];
};

export const NO_CUSTOM_COMMANDS: CustomCommandSet = { commands: [], problems: [], rejected: [], shadowNotices: [] };

/** A folder commands are read from; `project` when it is the project's (else the user's). */
export type CommandSource = { dir: string; label: string; project?: boolean };

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Where custom commands are read from, lowest precedence first: the user's, then the project's (which win by name). */
export function customCommandSources(opts: { root: string; shiroHome: string }): CommandSource[] {
  return [
    { dir: join(opts.shiroHome, "commands"), label: "$SHIRO_HOME/commands" },
    { dir: join(opts.root, ".shiro", "commands"), label: ".shiro/commands", project: true },
  ].filter((source, i, all) => all.findIndex((s) => s.dir === source.dir) === i); // the project is the home: read once
}

/**
 * Reads `<source>/<name>.md` files. Never throws: a file that cannot be read or parsed, a name that
 * cannot be typed, or a name a built-in command already has, is one line in `problems` (the built-in
 * wins). A later source replaces an earlier one's command of the same name.
 */
export function loadCustomCommands(sources: readonly CommandSource[]): CustomCommandSet {
  const byName = new Map<string, CustomCommand>();
  const problems: string[] = [];
  const shadowNotices: string[] = [];
  const rejected = new Map<string, RejectedCommand>();
  const builtIn = new Set<string>(SLASH_COMMANDS.map((command) => command.name));
  for (const source of sources) {
    let files: string[];
    try {
      files = readdirSync(source.dir, { withFileTypes: true })
        .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && entry.name.toLowerCase().endsWith(".md"))
        .map((entry) => entry.name)
        .sort();
    } catch {
      continue;
    }
    for (const file of files) {
      const where = `${source.label}/${file}`;
      /** The file is not used: said at the start, and again if its name is typed. */
      const reject = (why: string) => {
        problems.push(`custom command ${where} is not used: ${why}`);
        rejected.set(name, { name, source: where, why: why.replace(/\.$/, "") });
      };
      const name = basename(file, file.slice(-3)).toLowerCase();
      if (!NAME.test(name)) {
        problems.push(`custom command ${where} is not used: its name must be letters, digits, ".", "_" or "-"; rename the file.`);
        continue;
      }
      if (builtIn.has(name)) {
        problems.push(`custom command ${where} is not used: /${name} is a built-in command; rename the file to use it.`);
        continue;
      }
      let text: string;
      try {
        text = readFileSync(join(source.dir, file), "utf8");
      } catch (error) {
        reject(`it cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
        continue;
      }
      const parsed = parseFrontMatter(text);
      if (!parsed.ok) {
        reject(parsed.why);
        continue;
      }
      const { description, agent, model } = parsed.fields;
      if (agent?.trim() && !isVariantName(agent.trim())) {
        reject(`its agent "${agent.trim()}" is not one of ${VARIANT_NAMES.join(", ")}.`);
        continue;
      }
      const body = parsed.body.trim();
      if (!body) {
        reject("it has no text after the front matter.");
        continue;
      }
      const earlier = byName.get(name);
      if (earlier && !earlier.project && source.project) {
        shadowNotices.push(`/${name}: this project's ${where} replaces your own ${earlier.source}; typing /${name} runs the project's. Rename one to keep both.`);
      }
      byName.set(name, {
        ...(source.project ? { project: true } : {}),
        name,
        description: screenLine(description ?? "") || screenLine(firstLine(body)), // a project's words, shown by /help and the / list
        ...(agent?.trim() ? { agent: agent.trim() } : {}),
        ...(model?.trim() ? { model: model.trim() } : {}),
        body,
        source: where,
      });
    }
  }
  const commands = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  // A name another source does provide is not missing: that file's command runs.
  return { commands, problems, rejected: [...rejected.values()].filter((r) => !byName.has(r.name)), shadowNotices };
}

/**
 * The prompt a custom command sends: `$ARGUMENTS` is everything after the name, `$1`…`$9` its words
 * (quotes group words: `"a b"`); a missing one is empty. A body that uses neither gets the
 * arguments, if any, after a blank line. Pure.
 */
export function expandCommand(command: Pick<CustomCommand, "body">, args: string): string {
  const words = splitWords(args);
  const uses = /\$ARGUMENTS|\$[1-9]/.test(command.body);
  const expanded = command.body.replace(/\$ARGUMENTS|\$([1-9])/g, (_match, digit: string | undefined) => (digit ? (words[Number(digit) - 1] ?? "") : args.trim()));
  return uses || !args.trim() ? expanded : `${expanded}\n\n${args.trim()}`;
}

/** Words as a shell would group them with quotes (no escapes, no expansion). */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3]!);
  return words;
}

/** One line safe for the screen: no escape sequences or control characters, spaces folded. */
function screenLine(text: string): string {
  return Bun.stripANSI(text).replace(/[\x00-\x1f\x7f-\x9f]/g, " ").replace(/\s+/g, " ").trim();
}

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim()) ?? "";
  return line.length > 60 ? line.slice(0, 59) + "…" : line;
}
