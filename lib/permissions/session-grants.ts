import type { SubjectKind } from "../tools/define.ts";
import { commandParts } from "./command-parts.ts";
import { matchPattern } from "./match-pattern.ts";

/** An "always" answer: the whole tool, or for a command tool (bash) the commands starting with one program (`git *`). */
export type Grant = { tool: string; pattern?: string };

/** The tool a grant is asked about: its name, and whether its subject is a command line. */
type GrantedTool = { name: string; subject: { kind: SubjectKind } };

/**
 * "Always" answers for one session. Held in memory only and never written anywhere, so they end
 * with the process. They turn an `ask` into `allow`; the policy consults them only after deny
 * rules, so a grant can never lift a `deny`.
 */
export type SessionGrants = {
  add(grant: Grant): void;
  covers(tool: GrantedTool, subject: string): boolean;
  list(): readonly Grant[];
};

export function createSessionGrants(): SessionGrants {
  const grants: Grant[] = [];
  return {
    add(grant) {
      if (!grants.some((g) => g.tool === grant.tool && g.pattern === grant.pattern)) grants.push({ ...grant });
    },
    covers(tool, subject) {
      const mine = grants.filter((grant) => grant.tool === tool.name);
      if (mine.some((grant) => grant.pattern === undefined)) return true;
      if (tool.subject.kind !== "command" || mine.length === 0) return false;
      // Every command in the line must be covered, and none may write files by redirection or
      // be git running something other than git (see gitBeyondGrant).
      const parts = commandParts(subject);
      return (
        parts.length > 0 &&
        parts.every(
          (part) =>
            part.program !== undefined &&
            !part.writesFile &&
            !gitBeyondGrant(part) &&
            mine.some((grant) => grant.pattern !== undefined && (programOf(grant.pattern) === part.program || matchPattern(grant.pattern, part.source))),
        )
      );
    },
    list: () => grants.map((grant) => ({ ...grant })),
  };
}

/** What "always" grants for this call: a command → its first program (`git *`); any other subject → the whole tool. */
export function grantFor(tool: GrantedTool, subject: string): Grant {
  if (tool.subject.kind !== "command") return { tool: tool.name };
  const program = commandParts(subject)[0]?.program;
  return program ? { tool: tool.name, pattern: `${program} *` } : { tool: tool.name, pattern: subject.trim() };
}

/** A grant in words, for the question and the screen: "bash commands starting with git". */
export function describeGrant(grant: Grant): string {
  if (grant.pattern === undefined) return `every ${grant.tool} call`;
  const program = programOf(grant.pattern);
  return program ? `${grant.tool} commands starting with ${program}` : `${grant.tool} ${grant.pattern}`;
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

function programOf(pattern: string): string | undefined {
  return pattern.endsWith(" *") ? pattern.slice(0, -2) : undefined;
}
