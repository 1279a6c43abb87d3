import type { SubjectKind } from "../tools/define.ts";
import { commandParts } from "./command-parts.ts";
import { parseShell } from "./shell-parse.ts";

/**
 * An "always" answer: the whole tool, or for a command tool (bash) one pattern per command of the
 * line (`also`: the patterns after the first, for a compound line). A bash
 * pattern is either a program and its first words followed by ` *` (`git commit *`: those words,
 * then anything), `*` (any command), or an exact command line, matched as written (`*` and `?`
 * in it are plain characters).
 */
export type Grant = { tool: string; pattern?: string; also?: readonly string[] };

/** Each pattern of a grant as a grant of its own: a compound line's grant has one per part (`also`). */
export function grantPatterns(grant: Grant): Grant[] {
  return [{ tool: grant.tool, ...(grant.pattern !== undefined ? { pattern: grant.pattern } : {}) }, ...(grant.also ?? []).map((pattern) => ({ tool: grant.tool, pattern }))];
}

/** The tool a grant is asked about: its name, and whether its subject is a command line. */
type GrantedTool = { name: string; subject: { kind: SubjectKind } };

/**
 * "Always" answers: those given in this session (memory only) and those saved in the config's
 * `alwaysAllow`, loaded at the start. They turn an `ask` into `allow`; the policy consults them
 * only after deny rules, so a grant can never lift
 * a `deny`. For bash every command of the line must be covered, none may write a file by
 * redirection, and git must run one of its own commands.
 */
export type SessionGrants = {
  add(grant: Grant): void;
  covers(tool: GrantedTool, subject: string): boolean;
  list(): readonly Grant[];
};

export function createSessionGrants(initial: readonly Grant[] = []): SessionGrants {
  const grants: Grant[] = [];
  const add = (given: Grant) => {
    for (const grant of grantPatterns(given)) if (!grants.some((g) => g.tool === grant.tool && g.pattern === grant.pattern)) grants.push(grant);
  };
  for (const grant of initial) add(grant);
  return {
    add,
    covers(tool, subject) {
      const mine = grants.filter((grant) => grant.tool === tool.name);
      if (mine.length === 0) return false;
      if (tool.subject.kind !== "command") return mine.some((grant) => grant.pattern === undefined || grant.pattern === "*");
      const parts = commandParts(subject);
      return (
        parts.length > 0 &&
        parts.every(
          (part) => part.program !== undefined && !part.writesFile && !gitBeyondGrant(part) && mine.some((grant) => grantCovers(grant.pattern ?? "*", part)),
        )
      );
    },
    list: () => grants.map((grant) => ({ ...grant })),
  };
}

/** The grants saved in a config `alwaysAllow` section: tool → patterns (`"*"` alone: the whole tool). */
export function savedGrants(saved: Readonly<Record<string, readonly string[]>> | undefined): Grant[] {
  return Object.entries(saved ?? {}).flatMap(([tool, patterns]) => patterns.map((pattern) => (pattern.trim() === "*" ? { tool } : { tool, pattern: pattern.trim() })));
}

/** The first words of a prefix pattern (`git commit *` → git, commit), or undefined for an exact command line. */
export function prefixWords(pattern: string): string[] | undefined {
  if (!pattern.endsWith(" *")) return undefined;
  const words = pattern.slice(0, -2).trim().split(/\s+/);
  return words.every((word) => word !== "" && !/[*?[\]'"\\$`]/.test(word)) ? words : undefined;
}

function grantCovers(pattern: string, part: { source: string; words?: string[]; heredoc?: boolean; runsAnother?: string }): boolean {
  const prefix = prefixWords(pattern);
  // An exact line is the whole command: a heredoc body is not part of `source`, so it is not covered.
  if (!prefix && pattern !== "*") return part.source.trim() === pattern && !part.heredoc;
  // A grant for a program never covers the options that make it run another (runs-another.ts).
  if (part.runsAnother !== undefined) return false;
  return pattern === "*" || prefix!.every((word, i) => part.words?.[i] === word);
}

/**
 * Programs whose first operand is usually a file, a path or a script, not a sub-command: an
 * "always" for them is the exact command line, never `rm build *`.
 */
const OPERATES_ON_PATHS = new Set(
  ("rm rmdir unlink shred truncate mv cp ln install rsync scp tar zip unzip find sed awk gawk perl python python3 node ruby php " +
    "sh bash zsh dash fish env sudo doas nohup xargs exec eval source . command builtin time nice timeout watch chmod chown chgrp " +
    "touch mkdir tee dd cat less more head tail grep rg diff patch open xdg-open curl wget ssh").split(" "),
);

/** A plain sub-command word: `commit`, `test`, `build`, `run-script`. */
const SUBCOMMAND = /^[a-z][a-z0-9_-]*$/;

/**
 * Programs whose options are never a prefix to grant: those that run whatever follows them or
 * evaluate code, fetch and run packages, reach the network, or (git) pass a global option before
 * any of their commands (`git --no-pager *` would cover `git --no-pager push --force`).
 */
const NO_OPTION_PREFIX = new Set(
  ("sh bash zsh dash fish env sudo doas nohup xargs exec eval source . command builtin time nice timeout watch parallel " +
    "ssh scp sftp rsync curl wget nc ncat socat npx bunx pnpx uvx pipx git").split(" "),
);

/** Of the programs that take paths, those whose long options name a mode of their own (`node --test`, `python3 --version`): they may get an option prefix. */
const INTERPRETERS = new Set(["node", "python", "python3", "ruby", "php"]);

/** Options that hand the program code to run or load: never a prefix to grant (`node --eval *`). */
const CODE_OPTION = /^--(?:eval|print|exec|command|require|import|loader|experimental-loader|init|rcfile|cmd|run)(?:$|=)/;

/** A long option standing alone: `--test`, `--no-cache` (not `--out=file`). */
const LONG_OPTION = /^--[a-z][a-z0-9-]*$/;

/**
 * What "always" grants for this call, or undefined when none can be offered. Any subject other
 * than a command: the whole tool. A simple command: its program and sub-command (`npm test *`,
 * `git commit *`) when the second word is a plain word and the program is not one that takes
 * paths; its program and a long option standing for a mode (`node --test *`) when the program
 * does not run what follows it and the option does not hand it code; else the exact command line.
 * No option that makes the program run another (runs-another.ts) is ever covered. A compound line
 * (`a && b`, `a | b`, `a; b`) of simple commands: one pattern per command (the grant's `also`).
 * A `$(…)` substitution, a subshell, a heredoc, a command writing a file by redirection, or git
 * running an alias: nothing, since the grant would not cover the next such call anyway.
 */
export function grantFor(tool: GrantedTool, subject: string): Grant | undefined {
  if (tool.subject.kind !== "command") return { tool: tool.name };
  const parsed = parseShell(subject);
  const parts = commandParts(subject);
  if (parts.length === 0 || parsed.commands.length !== parts.length || parsed.substitutions.length > 0) return undefined;
  const patterns: string[] = [];
  for (const part of parts) {
    const pattern = partPattern(part);
    if (pattern === undefined) return undefined;
    if (!patterns.includes(pattern)) patterns.push(pattern);
  }
  const [pattern, ...also] = patterns;
  return { tool: tool.name, pattern: pattern!, ...(also.length > 0 ? { also } : {}) };
}

/** The pattern "always" grants for one simple command, or undefined when it cannot be granted. */
function partPattern(part: ReturnType<typeof commandParts>[number]): string | undefined {
  if (part.program === undefined || part.writesFile || part.heredoc || gitBeyondGrant(part) || part.programExpands) return undefined;
  const [program, second] = part.words ?? [];
  const plainProgram = program !== undefined && /^[A-Za-z0-9_.+-]+$/.test(program);
  if (plainProgram && second !== undefined && part.runsAnother === undefined) {
    if (SUBCOMMAND.test(second) && !OPERATES_ON_PATHS.has(program)) return `${program} ${second} *`;
    const optionPrefixed = !OPERATES_ON_PATHS.has(program) || INTERPRETERS.has(program);
    if (LONG_OPTION.test(second) && !CODE_OPTION.test(second) && !NO_OPTION_PREFIX.has(program) && optionPrefixed) return `${program} ${second} *`;
  }
  const exact = part.source.trim();
  // An exact line that reads as a prefix pattern (`rm *`) would grant more once saved.
  return prefixWords(exact) || exact === "*" ? undefined : exact;
}

/** A grant in words, for the question and the screen: "bash commands starting with `git commit`". */
export function describeGrant(grant: Grant): string {
  if (grant.also && grant.also.length > 0) {
    const each = grantPatterns(grant).map((g) => (prefixWords(g.pattern!) ? `\`${prefixWords(g.pattern!)!.join(" ")} …\`` : `\`${g.pattern}\``));
    return `${grant.tool} commands ${each.slice(0, -1).join(", ")} and ${each.at(-1)}`;
  }
  if (grant.pattern === undefined || grant.pattern === "*") return `every ${grant.tool} call`;
  const prefix = prefixWords(grant.pattern);
  if (prefix) return `${grant.tool} commands starting with \`${prefix.join(" ")}\``;
  // A long line is on screen just above the question; naming it again would not fit.
  return grant.pattern.length <= 40 ? `the ${grant.tool} command \`${grant.pattern}\` exactly` : `this exact ${grant.tool} command`;
}

/**
 * git's own commands. Anything else after `git` may be an alias from a config file, and an alias
 * can be `!any shell command`, so an "always" for git never covers it.
 */
const GIT_COMMANDS = new Set(
  ("add am annotate apply archive bisect blame branch bundle cat-file check-attr check-ignore check-ref-format checkout cherry cherry-pick " +
    "clean clone commit config count-objects describe diff diff-files diff-index diff-tree difftool fetch for-each-ref format-patch fsck gc " +
    "grep hash-object help init log ls-files ls-remote ls-tree maintenance merge merge-base mergetool mv name-rev notes prune pull push " +
    "range-diff rebase reflog remote repack restore rev-list rev-parse revert rm shortlog show show-branch show-ref sparse-checkout stash " +
    "status submodule switch symbolic-ref tag update-index update-ref var verify-commit verify-tag version whatchanged worktree write-tree").split(" "),
);

/**
 * True for a git command an "always" answer must not cover: one that sets config on the command
 * line (`git -c alias.x='!…' x`, `-c core.pager=…`), or whose subcommand is not one of git's own
 * and so may be an alias (`!` aliases run any command).
 */
function gitBeyondGrant(part: { git?: { sub: string | undefined; settings: string[] } }): boolean {
  if (!part.git) return false;
  return part.git.settings.length > 0 || part.git.sub === undefined || !GIT_COMMANDS.has(part.git.sub);
}

