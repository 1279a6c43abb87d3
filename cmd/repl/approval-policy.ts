/**
 * What the user allowed "always" in this session: whole tools (edit_file) and, for bash, command
 * names (`git` for the pattern `git *`). In memory only: a new shiro asks again.
 */
export type Grants = { tools: Set<string>; commands: Set<string> };

export function emptyGrants(): Grants {
  return { tools: new Set(), commands: new Set() };
}

/** Constructs that run code the command line does not show: never covered by a `name *` grant. */
const HIDDEN_CODE = /`|\$\(|<\(|>\(/;
/** Shell words that come before the command they govern (`do make`, `if grep …`, `time npm test`). */
const LEADING_KEYWORDS = new Set(["do", "then", "else", "elif", "if", "while", "until", "!", "time"]);
const CLOSING_KEYWORDS = new Set(["done", "fi", "esac"]);
/** Separators between the commands of one line. */
const SEPARATORS = /&&|\|\||[;|&\n]/;

/**
 * The command names a bash line runs, in order (`cd src && npm test` → ["cd", "npm"]), skipping
 * leading `VAR=value` assignments and shell keywords (`for i in 1 2; do echo $i; done` → ["echo"]). Undefined when the line hides code (backticks, `$(…)`,
 * process substitution) or opens a subshell or group, so no grant can cover it. Conservative:
 * an operator inside quotes splits too, which can only make shiro ask more, never less.
 */
export function commandNames(command: string): string[] | undefined {
  if (HIDDEN_CODE.test(command)) return undefined;
  const names: string[] = [];
  for (const segment of command.split(SEPARATORS)) {
    const words = segment.trim().split(/\s+/).filter(Boolean);
    while (words.length > 0 && (LEADING_KEYWORDS.has(words[0]!) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!))) words.shift();
    const name = words[0];
    if (name === undefined || CLOSING_KEYWORDS.has(name)) continue;
    if (name === "for" || name === "select") continue; // `for x in …`: the loop body is its own segment
    if (/^[({]/.test(name) || name === "case" || name === "function") return undefined;
    names.push(name);
  }
  return names.length > 0 ? names : undefined;
}

/** True when an earlier "always" covers this call: the tool, or for bash every command in the line. */
export function isGranted(grants: Grants, tool: string, subject: string): boolean {
  if (tool !== "bash") return grants.tools.has(tool);
  const names = commandNames(subject);
  return names !== undefined && names.every((name) => grants.commands.has(name));
}

/** What `a` grants for this call, and how the prompt names it: `git *`, or the tool. */
export function alwaysGrant(tool: string, subject: string): { label: string; apply(grants: Grants): void } {
  if (tool !== "bash") return { label: tool, apply: (grants) => void grants.tools.add(tool) };
  const names = commandNames(subject) ?? [subject.trim().split(/\s+/)[0] ?? subject];
  const unique = [...new Set(names)];
  return {
    label: unique.map((name) => `${name} *`).join(", "),
    apply: (grants) => unique.forEach((name) => grants.commands.add(name)),
  };
}
