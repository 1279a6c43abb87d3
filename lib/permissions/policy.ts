import type { Approval, Approver, SubagentOrigin } from "../approval.ts";
import type { AnyTool } from "../tools/define.ts";
import { precheckTool, subjectPaths } from "../tools/define.ts";
import { posix } from "node:path";
import { decideCall, decidePaths, workspacePath } from "./decide.ts";
import { physicalPath } from "./fs-paths.ts";
import { isReadOnlyCommand, readOnlyList } from "./read-only.ts";
import { guardCommand } from "./guard.ts";
import { askFailedReason, declinedReason, denyReason, guardReason, headlessAskReason, opaqueReason, repeatReason, subagentAskReason } from "./reasons.ts";
import { askFailedShown, DECLINED_SHOWN, denyShown, guardShown, HEADLESS_ASK_SHOWN, opaqueShown, repeatShown, SUBAGENT_ASK_SHOWN } from "./shown.ts";
import { REPEAT_LIMIT, createRepeatTracker } from "./repeat-guard.ts";
import { flattenRules } from "./rules.ts";
import type { ApprovalMode, PermissionSettings } from "../config/permission-schema.ts";
import { createSessionGrants, describeGrant, grantFor, savedGrants, type Grant } from "./session-grants.ts";

export type AskAnswer = "once" | "always" | "deny";

/** What the interactive loop is asked to put to the user. */
export type PermissionQuestion = {
  tool: AnyTool;
  input: unknown;
  subject: string;
  id: string;
  /**
   * `approval`: the rules say ask. `repeat`: the model made the same call `count` times this turn.
   * `outside`: the call failed in the sandbox because of it (`detail` says how), and may run once
   * outside it; "always" means once here.
   */
  why: "approval" | "repeat" | "outside";
  count?: number;
  /** For `outside`: why the sandbox looks like the cause, as a clause. */
  detail?: string;
  /**
   * What answering "always" allows for the rest of the session, e.g. "bash commands starting with
   * `git commit`". Undefined when "always" is not offered (a compound command line the grant would
   * not cover); the answer "always" then counts as "once".
   */
  always?: string;
  /** The same as a grant, to save as a rule (only for `approval` questions). */
  grant?: Grant;
  /** Set when a subagent (the task tool) makes the call, so the question can say so. */
  subagent?: SubagentOrigin;
  /**
   * For `approval` questions the approval mode could lift: whether `mode` would run this call
   * without a question (shift-tab at the question switches the mode and, if so, lets it run).
   * Absent for questions no mode lifts: a user's ask rule, a repeat, the sandbox's outside.
   */
  runsUnaskedIn?: (mode: ApprovalMode) => boolean;
};

export type PermissionPolicyOptions = {
  /** The loaded config file (only `permission` and `guard` are read). */
  config: PermissionSettings;
  /** Workspace root. */
  root: string;
  /** Where shiro was started; relative paths and bash commands start here. Defaults to root. */
  cwd?: string;
  /** Home directory, for judging `rm -rf ~/…`; without it every `~` target is refused. */
  home?: string;
  /** `--yolo`: `ask` becomes `allow`. Never reaches deny rules, the guard or the repeat guard. */
  yolo: boolean;
  /** True when a person can answer questions; `ask` must then be given. */
  interactive: boolean;
  /**
   * True when commands run in the sandbox. An interactive session may then offer to run a command
   * the sandbox stopped once outside it, and `auto` mode runs commands without a question. The
   * guard judges the same either way.
   */
  sandboxed?: boolean;
  /** Puts a question to the user. Should not throw; if it does, the call is denied. */
  ask?: (question: PermissionQuestion) => Promise<AskAnswer>;
  /**
   * The interactive loop's approval mode, read at every call (shift-tab changes it). With one, a
   * call the defaults would ask about runs without a question when it is a read-only command
   * (every mode), a file edit inside the workspace (`edits`, `auto`) or a command in a working
   * sandbox (`auto`). Without one and with nobody to ask (headless), what the loop runs without a
   * question in any mode runs: the read-only commands, judged the same way; the rest is denied.
   * Without one in a session that can ask, nothing is lifted. A rule the user wrote ("ask" or
   * "deny"), the guard and the repeat guard are never lifted.
   */
  mode?: () => ApprovalMode;
  /**
   * Before a question, check that the call can succeed (the tool's own precheck, ToolDef.precheck):
   * one that cannot fails with the tool's error, as it would after "y", and nothing is asked.
   */
  precheck?: boolean;
};

export type PermissionPolicy = {
  /** Pass as the turn's approver. */
  approve: Approver;
  /** Call at the start of every user turn: the repeat guard counts per turn. */
  startTurn(): void;
  /** The "always" grants in force: the saved ones, then the session's. */
  grants(): readonly Grant[];
};

/**
 * The decision engine every tool call goes through, in this order:
 * 1. the guard (command subjects, i.e. bash; every mode, --yolo included, sandbox or not),
 * 2. deny rules and deny defaults (nothing overrides them); a command running code shiro cannot
 *    read where a deny rule could apply asks every time, and is refused headless or under --yolo,
 * 3. the repeat guard (the third identical call in a turn asks; headless: denied),
 * 4. allow, or ask: granted by an earlier "always" (this session's or saved in `alwaysAllow`;
 *    never for an ask rule of the user's that names particular calls), by --yolo, lifted by the mode or the
 *    read-only list (headless too; see `mode`), by the user, or denied headless. Before a
 *    question, a call that cannot succeed fails with the tool's own error (see `precheck`).
 * Rules come from the config's `permission`, then `projects."<root>".permission` for this root.
 */
export function createPermissionPolicy(opts: PermissionPolicyOptions): PermissionPolicy {
  const project = opts.config.projects?.[opts.root]?.permission;
  const rules = [...flattenRules(opts.config.permission), ...flattenRules(project, `projects.${JSON.stringify(opts.root)}.permission`)];
  const where = { root: opts.root, cwd: opts.cwd ?? opts.root };
  const readOnly = readOnlyList(opts.config.readOnlyCommands);
  const guardAllow = opts.config.guard?.allow ?? [];
  const repeats = createRepeatTracker();
  // Saved "always" answers (config `alwaysAllow`, then this project's) start as grants.
  const grants = createSessionGrants([...savedGrants(opts.config.alwaysAllow), ...savedGrants(opts.config.projects?.[opts.root]?.alwaysAllow)]);
  const ask = opts.interactive ? opts.ask : undefined;
  const allow: Approval = { allow: true };
  const deny = (reason: string, shown: string): Approval => ({ allow: false, reason, shown });

  const askUser = async (question: PermissionQuestion): Promise<AskAnswer | Error> => {
    try {
      return await ask!(question);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  };

  const sandboxed = opts.sandboxed === true;
  const guard = (subject: string) => guardCommand(subject, { root: where.root, cwd: where.cwd, home: opts.home, allow: guardAllow });

  /** Whether a command is on the read-only list as it will run (its programs are then looked up on a safe PATH). */
  const readOnlyCommand = (tool: AnyTool, subject: string) =>
    tool.subject.kind === "command" && isReadOnlyCommand(subject, readOnly, where.cwd, sandboxed ? undefined : where.root);

  /**
   * The call may run; a command in the sandbox may ask to run once outside it (interactive only).
   * A read-only command is marked so (Approval.readOnly).
   */
  const allowCall = (call: { tool: AnyTool; input: unknown; subject: string; id: string }): Approval => {
    const looks = readOnlyCommand(call.tool, call.subject);
    if (!ask || !sandboxed || call.tool.subject.kind !== "command") return looks ? { allow: true, readOnly: true } : allow;
    // The guard already judged it, and judges the same outside the sandbox.
    const runOutside = async (detail: string): Promise<boolean> => {
      const answer = await askUser({ ...call, why: "outside", detail, always: "once, outside the sandbox" });
      return answer === "once" || answer === "always";
    };
    return { allow: true, runOutside, ...(looks ? { readOnly: true } : {}) };
  };

  /** True when the mode (or, in any mode, the read-only list) lets a call the defaults ask about run without a question. */
  // Nobody to ask: the one judgement every mode shares (the read-only list), as in `ask`.
  const lifted = (tool: AnyTool, subject: string, paths: readonly string[] | undefined): boolean =>
    liftedIn(opts.mode?.() ?? (ask ? undefined : "ask"), tool, subject, paths);
  const liftedIn = (mode: ApprovalMode | undefined, tool: AnyTool, subject: string, paths: readonly string[] | undefined): boolean => {
    if (mode === undefined) return false;
    if (tool.subject.kind === "command") return readOnlyCommand(tool, subject) || (mode === "auto" && sandboxed);
    if (tool.subject.kind !== "path" || mode === "ask") return false;
    const named = tool.subject.paths ? (paths ?? []) : [subject]; // a patch that names no path is not lifted
    return named.length > 0 && named.every((path) => path !== "" && liftablePath(workspacePath(path, where)) && liftablePath(physicalRelative(path)));
  };

  /** A path as it really is, symlinks followed, relative to the real workspace root (absolute when outside). */
  const realRoot = physicalPath(where.root, true);
  const physicalRelative = (path: string) => workspacePath(physicalPath(posix.resolve(where.cwd, path), true), { root: realRoot, cwd: realRoot });

  /** Before a question: a call that cannot succeed fails now with the tool's own error (thrown, so the model reads it as the tool's). */
  const mustSucceed = async (tool: AnyTool, input: unknown) => {
    if (!opts.precheck) return;
    const failure = await precheckTool(tool, input, where);
    if (failure) throw failure;
  };

  const approve: Approver = async (call) => {
    const { tool, input, subject, id } = call;
    // A read-only subagent never asks: the rules decide, and what they would ask about is refused.
    const asking = call.subagent?.ask === false ? undefined : ask;
    const from = call.subagent ? { subagent: call.subagent } : {};
    if (tool.subject.kind === "command" && subject) {
      const refusal = guard(subject);
      if (refusal) return deny(guardReason(refusal), guardShown(refusal));
    }

    const paths = tool.subject.kind === "path" ? subjectPaths(tool, input) : undefined;
    const verdict = paths ? decidePaths(rules, tool, paths, where) : decideCall(rules, tool, subject, where);
    if (verdict.decision === "deny") return deny(denyReason(tool.name, subject, verdict), denyShown(verdict));

    // Code shiro cannot read where a deny rule could apply: only a person may let it run.
    if (verdict.opaque !== undefined && (opts.yolo || !asking)) return deny(opaqueReason(tool.name, verdict, opts.yolo), opaqueShown(verdict));
    // An ask rule of the user's that names particular calls (`"git push*": "ask"`) asks every
    // time: no "always", saved or given now, lifts it, and none is offered. So does unreadable code.
    const pinned = verdict.decision === "ask" && ((verdict.rule?.subjectPattern !== undefined && /[^*\s]/.test(verdict.rule.subjectPattern)) || verdict.opaque !== undefined);
    // A PreToolUse hook's allow lifts the question as a grant would (never a pinned ask); its ask
    // makes a question whatever else would lift it, --yolo included (docs/hooks.md).
    const hookAllows = call.hook === "allow" && !pinned;
    const needsApproval =
      call.hook === "ask" ||
      (verdict.decision === "ask" &&
        !opts.yolo &&
        !hookAllows &&
        (pinned || !grants.covers(tool, subject)) &&
        !(verdict.rule === undefined && lifted(tool, subject, paths)));
    // The "always" a question would offer: worked out only when there is a question.
    const offered = () => {
      const always = pinned ? undefined : grantFor(tool, subject);
      return { always, offer: always ? { always: describeGrant(always) } : {} };
    };
    // Read-only subagents each read what they need; their own step cap bounds a loop.
    const count = call.subagent?.ask === false ? 0 : repeats.record(tool, input);
    if (count >= REPEAT_LIMIT) {
      if (!asking) return deny(repeatReason(tool.name, count, false), repeatShown(count));
      const { always, offer } = offered();
      await mustSucceed(tool, input);
      const answer = await askUser({ tool, input, subject, id, why: "repeat", count, ...offer, ...from });
      if (answer instanceof Error) return deny(askFailedReason(tool.name, answer), askFailedShown(answer));
      if (answer === "deny") return deny(repeatReason(tool.name, count, true), repeatShown(count));
      if (answer === "always" && needsApproval && always) grants.add(always);
      return allowCall(call);
    }

    if (!needsApproval) return allowCall(call);
    if (!asking) return deny(ask ? subagentAskReason(tool.name) : headlessAskReason(tool.name, tool.subject.kind === "command"), ask ? SUBAGENT_ASK_SHOWN : HEADLESS_ASK_SHOWN);
    const { always, offer } = offered();
    await mustSucceed(tool, input);
    // A mode lifts only what the defaults ask about: not a user's ask rule.
    const liftable = verdict.rule === undefined && opts.mode !== undefined ? { runsUnaskedIn: (mode: ApprovalMode) => liftedIn(mode, tool, subject, paths) } : {};
    const answer = await askUser({ tool, input, subject, id, why: "approval", ...offer, ...(always ? { grant: always } : {}), ...from, ...liftable });
    if (answer instanceof Error) return deny(askFailedReason(tool.name, answer), askFailedShown(answer));
    if (answer === "deny") return deny(declinedReason(tool.name), DECLINED_SHOWN);
    if (answer === "always" && always) grants.add(always);
    return allowCall(call);
  };

  return { approve, startTurn: () => repeats.reset(), grants: () => grants.list() };
}

/**
 * A file edit a mode may run without a question: inside the workspace (a relative path), and not
 * git's own files. A `.git` segment anywhere (`.git/config`, `.git/hooks/x`, `sub/.git/config`,
 * a `.git` file) holds hooks and config that run commands; `.gitattributes` and `.gitmodules`
 * name filters and submodule URLs. Those always ask.
 */
function liftablePath(relative: string): boolean {
  if (relative.startsWith("/")) return false;
  const segments = relative.split("/");
  if (segments.some((segment) => segment.toLowerCase() === ".git")) return false;
  const name = (segments.at(-1) ?? "").toLowerCase();
  return name !== ".gitattributes" && name !== ".gitmodules";
}
