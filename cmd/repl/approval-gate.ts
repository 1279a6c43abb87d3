import { USER_SAYS_INSTEAD } from "../../lib/sessions/transcript-items.ts";
import type { Approval, Approver } from "../../lib/approval.ts";
import type { ApprovalMode } from "../../lib/config/permission-schema.ts";
import type { AskAnswer, PermissionQuestion } from "../../lib/permissions/policy.ts";
import type { Grant } from "../../lib/permissions/session-grants.ts";
import type { RuleScope } from "../../lib/permissions/save-rule.ts";
import { previewOf, type Preview } from "./approval-preview.ts";
import { OUTCOME_MARKS, toolCallLine } from "../../lib/render.ts";
import { prevBoundary } from "../../lib/text/graphemes.ts";
import type { Key } from "./input/keys.ts";
import type { Theme } from "./theme.ts";

/** A question for the user about one call: lib/permissions' question (`why` defaults to approval). */
export type AskQuestion = Omit<PermissionQuestion, "why"> & { why?: PermissionQuestion["why"] };

/** Builds the decision engine (lib/permissions) around the loop's way of asking. */
export type PermissionHook = (ask: (question: AskQuestion) => Promise<AskAnswer>) => { approve: Approver; startTurn(): void };

const INTERRUPTED_REASON = "the user interrupted the turn before this call ran.";

export type ApprovalGate = {
  /**
   * The question on screen now, if any: `allow? y once · a always (git *) · n deny · esc interrupts`;
   * after `n`, `what should shiro do instead?` with the line typed so far (`text`).
   */
  pending(): { question: string; text?: string } | undefined;
  /** The id of the call the question on screen is about (a subagent's: `<task id>/<index>/<id>`), while one is. */
  asking(): string | undefined;
  /** True while the user types what to do instead of a denied call: keys go to type(). */
  typing(): boolean;
  /** A key for that line: text edits it, Enter sends it with the denial (empty: just deny), esc just denies and keeps the words (deps.draft). */
  type(key: Key): void;
  /** True once for a call the user was asked about and did not allow (the gate said so already). */
  answeredNo(id: string): boolean;
  /** The user's answer to the question on screen. */
  answer(choice: AskAnswer): void;
  /** What `d` shows at the question on screen when its preview was cut: the whole diff, command or arguments (plain lines). */
  details(): string[] | undefined;
  /**
   * The approval mode changed (shift-tab) while a question is up: if the new mode runs this call
   * without a question, it runs, as the next such calls will. True when it answered the question.
   */
  modeChanged(mode: ApprovalMode): boolean;
  /** True while the user chooses how long an "always" lasts: keys go to keep(). */
  choosingScope(): boolean;
  /** A key for that choice: s (or enter, esc) this session, p this project, e every project. */
  keep(key: Key): void;
  /**
   * The Approver for one turn. Questions come one at a time, in call order, and go away when
   * `signal` aborts; a call that changes things is judged only after the allowed change before
   * it finished (the Approval's `done`). Every allowed call gets its own stop signal from `register`, so ctrl-c can
   * stop that call without stopping the turn. A call that changes things and runs without a
   * question is announced here (`→ bash git status`); one that asked was named by its question.
   */
  approver(opts: { signal: AbortSignal; register: (id: string, tool: string) => AbortSignal }): Approver;
};

/** Past this many lines, a question's preview says its heading again just above the question. */
const HEADING_AGAIN_AFTER_LINES = 12;

export type GateDeps = {
  permissions: PermissionHook;
  where: { root: string; cwd: string };
  theme: Theme;
  /** Writes transcript lines (the preview, the decision). */
  print(text: string): void;
  /** The question appeared or went away: redraw. */
  changed(): void;
  /** Esc on the "what should shiro do instead?" line: the words typed there, given back to the input as a draft. */
  draft?(text: string): void;
  /** Called once for each question put to the user (the terminal bell). */
  bell?(): void;
  /** A y/a/n question appeared (the type-ahead guard starts its quiet moment). */
  opened?(question: AskQuestion): void;
  /** A question (or its follow-up: what instead, keep it?) was answered: nothing ran while it waited. */
  closed?(): void;
  /**
   * Saving an "always" answer as a rule in the user's config: where it would go and how it reads
   * (shown before the choice), and the save itself. Without them "always" lasts the session.
   */
  rules?: {
    target(grant: Grant, scope: Exclude<RuleScope, "session">): { file: string; section: string; rule: string };
    save(grant: Grant, scope: Exclude<RuleScope, "session">): Promise<void>;
  };
};

export function createApprovalGate(deps: GateDeps): ApprovalGate {
  let current:
    | { label: string | undefined; id: string; outside: boolean; resolve: (choice: AskAnswer) => void; instead?: string; runsUnaskedIn?: (mode: ApprovalMode) => boolean; byMode?: ApprovalMode; full?: Preview["full"] }
    | undefined;
  /** After "always": how long it lasts, chosen with one key. */
  let scoping: ((scope: RuleScope) => void) | undefined;
  /** What the user said to do instead, by call id, sent to the model with the denial. */
  const instead = new Map<string, string>();
  let chain: Promise<unknown> = Promise.resolve();
  let turnSignal: AbortSignal | undefined;
  const asked = new Set<string>();
  const refused = new Set<string>();
  /** The call being asked about, from its question to the last follow-up (what instead, keep it?). */
  let askingId: string | undefined;
  /** The call whose question or `→` line the gate printed last. */
  let lastShown: string | undefined;

  const ask = (question: AskQuestion): Promise<AskAnswer> => {
    const signal = turnSignal;
    const outside = question.why === "outside";
    // A question about running outside the sandbox comes while the call runs, after it was approved.
    if (!outside) asked.add(question.id);
    const next = chain.then(async (): Promise<AskAnswer> => {
      if (!signal || signal.aborted) return "deny";
      const { theme } = deps;
      let full: Preview["full"];
      if (outside) {
        // The command is on screen already (its question, or its `→ bash …` line): only the
        // reason, unless another call was shown since, then one short line says which it was.
        const failed = theme.warn(`  failed in the sandbox: ${question.detail ?? "the sandbox stopped it"}`);
        const by = question.subagent ? theme.dim(` (subagent: ${question.subagent.description})`) : "";
        deps.print(lastShown === question.id ? failed : `${toolCallLine(theme, question.tool.name, question.subject)}${by}\n${failed}`);
      } else {
        const previewed = previewOf(question.tool, question.input, question.subject, deps.where, theme);
        const preview = previewed.lines;
        full = previewed.full;
        if (question.why === "repeat") preview.splice(1, 0, theme.warn(`    (the same call for the ${ordinal(question.count ?? 3)} time this turn)`));
        if (question.subagent) preview.splice(1, 0, theme.warn(`    asked by a subagent: ${question.subagent.kind} · ${question.subagent.description}`));
        // A long preview pushes its heading off a small screen: it is said again above the question.
        if (preview.length > HEADING_AGAIN_AFTER_LINES) preview.push(theme.dim(`  ↑ ${Bun.stripANSI(preview[0]!)}`));
        deps.print(preview.join("\n"));
      }
      lastShown = question.id;
      askingId = question.id;
      try {
        return await decide(question, signal, outside, full);
      } finally {
        askingId = undefined;
      }
    });
    chain = next.catch(() => {});
    return next;
  };

  /** The question for one call, on screen until it is answered, and what the answer was. */
  const decide = async (question: AskQuestion, signal: AbortSignal, outside: boolean, full?: Preview["full"]): Promise<AskAnswer> => {
    const { theme } = deps;
    let byMode: ApprovalMode | undefined;
    const given = await new Promise<AskAnswer>((resolve) => {
      current = { label: question.always, id: question.id, outside, resolve, ...(question.runsUnaskedIn ? { runsUnaskedIn: question.runsUnaskedIn } : {}), ...(full ? { full } : {}) };
      signal.addEventListener("abort", () => resolve("deny"), { once: true });
      deps.opened?.(question);
      deps.bell?.();
      deps.changed();
    });
    // An interrupt that came with the answer (esc right after a held y) wins: "not run" stays true.
    const choice = signal.aborted ? "deny" : given;
    byMode = current?.byMode;
    current = undefined;
    deps.closed?.();
    deps.changed();
    if (outside) {
      deps.print(signal.aborted ? theme.warn("  not run: interrupted") : choice === "deny" ? theme.warn("  kept in the sandbox") : theme.warn("  running once outside the sandbox"));
      return choice;
    }
    if (signal.aborted) deps.print(theme.stopped(`  ${OUTCOME_MARKS.interrupted} not run: interrupted`));
    else if (byMode) deps.print(theme.ok(`  allowed: ${byMode} mode runs it without asking`));
    else if (choice === "once") deps.print(theme.ok("  allowed once"));
    else if (choice === "always") await keepAlways(question, signal);
    else if (instead.has(question.id)) deps.print(theme.warn(`  ${OUTCOME_MARKS.denied} denied; the model is told: ${instead.get(question.id)}`));
    else deps.print(theme.warn(`  ${OUTCOME_MARKS.denied} denied; the model is told not to retry it`));
    // An interrupt while "keep it?" was open: nothing is granted or saved, and the call does not run.
    if (choice === "always" && signal.aborted) {
      deps.print(theme.stopped(`  ${OUTCOME_MARKS.interrupted} not run: interrupted`));
      refused.add(question.id);
      return "deny";
    }
    if (signal.aborted || choice === "deny") refused.add(question.id);
    return choice;
  };

  /** After "always": this session only, or saved as a rule for this project or every project (shown before it is written). */
  const keepAlways = async (question: AskQuestion, signal: AbortSignal): Promise<void> => {
    const { theme, rules } = deps;
    const grant = question.grant;
    const forSession = () => deps.print(theme.ok(`  allowed; ${question.always} will run without asking for the rest of this session`));
    if (!rules || !grant || question.why !== "approval" || signal.aborted) return forSession();
    const project = rules.target(grant, "project");
    const global = rules.target(grant, "global");
    deps.print(
      theme.dim(
        [`  to keep it, shiro writes ${project.rule} in ${project.file}:`, `    this project: under ${project.section}`, `    every project: under ${global.section}`].join("\n"),
      ),
    );
    const scope = await new Promise<RuleScope | "interrupted">((resolve) => {
      scoping = resolve;
      signal.addEventListener("abort", () => resolve("interrupted"), { once: true });
      deps.changed();
    });
    scoping = undefined;
    deps.closed?.();
    deps.changed();
    if (scope === "interrupted") return; // the caller says "not run: interrupted", and grants nothing
    if (scope === "session") return forSession();
    try {
      await rules.save(grant, scope);
      const where = scope === "project" ? "in this project" : "in every project";
      deps.print(theme.ok(`  allowed; saved ${project.rule} under ${scope === "project" ? project.section : global.section}: ${question.always} will run without asking ${where}`));
    } catch (error) {
      deps.print(theme.warn(`  allowed for this session; the rule was not saved: ${error instanceof Error ? error.message : String(error)}`));
    }
  };

  // Built at the first turn: the session that supplies the engine opens after the gate exists.
  let policy: ReturnType<PermissionHook> | undefined;

  return {
    pending: () => {
      if (scoping) return { question: "keep it? s (or enter, esc) this session only · p this project · e every project " };
      if (!current) return undefined;
      if (current.instead !== undefined) return { question: "  what should shiro do instead? (enter alone just denies) › ", text: current.instead };
      if (current.outside) return { question: "run it once outside the sandbox? y yes · n no · esc interrupts " };
      // No "always" for a line its grant would not cover (a && b, a | b): y or n only. `d` when the preview was cut.
      const more = current.full ? ` · d ${current.full.label}` : "";
      if (current.label === undefined) return { question: `allow? y once · n deny${more} · esc interrupts ` };
      return { question: `allow? y once · a always (${current.label}) · n deny${more} · esc interrupts ` };
    },
    asking: () => askingId,
    answeredNo: (id) => refused.delete(id),
    modeChanged(mode) {
      if (!current || current.instead !== undefined || !current.runsUnaskedIn?.(mode)) return false;
      current.byMode = mode;
      current.resolve("once");
      return true;
    },
    answer(choice) {
      if (!current) return;
      if (choice === "always" && current.label === undefined) return; // not offered
      if (choice !== "deny" || current.outside) return current.resolve(choice);
      // `n`: ask what to do instead before the denial goes to the model.
      current.instead = "";
      deps.changed();
    },
    details: () => (current && current.instead === undefined && !scoping ? current.full?.lines : undefined),
    typing: () => current?.instead !== undefined,
    choosingScope: () => scoping !== undefined,
    keep(key) {
      if (!scoping) return;
      const typed = key.name === "text" ? key.text.toLowerCase() : "";
      if (typed === "p") scoping("project");
      else if (typed === "e") scoping("global");
      else if (typed === "s" || key.name === "enter" || key.name === "escape" || key.name === "ctrl-c") scoping("session");
    },
    type(key) {
      if (!current || current.instead === undefined) return;
      if (key.name === "enter") {
        const said = current.instead.trim();
        if (said) instead.set(current.id, said);
        return current.resolve("deny");
      }
      if (key.name === "text" || key.name === "paste") current.instead += key.text.replace(/[\r\n]+/g, " ");
      // A whole character as seen (an emoji, an accented letter), never half of one.
      else if (key.name === "backspace") current.instead = current.instead.slice(0, prevBoundary(current.instead, current.instead.length));
      else if (key.name === "escape") {
        // Just the denial; what was typed is not lost, it waits in the input.
        const typed = current.instead.trim();
        if (typed) deps.draft?.(typed);
        return current.resolve("deny");
      }
      deps.changed();
    },
    approver({ signal, register }) {
      turnSignal = signal;
      const engine = (policy ??= deps.permissions(ask));
      engine.startTurn();
      // One decision at a time, in call order: an "always" given to the first of two parallel
      // calls must cover the second before it is asked about.
      let decisions: Promise<unknown> = Promise.resolve();
      // A call that changes things waits, in call order, for the one before it that does: for its
      // decision, and when that one was allowed to change files, for it to finish. So a question
      // (its diff, its precheck) sees the files as the earlier calls left them, and their results
      // are not printed inside it. Read-only calls do not wait, nor commands that ran unasked.
      let changes: Promise<void> = Promise.resolve();
      return async (call) => {
        let release = () => {};
        if (call.tool.mutates) {
          const before = changes;
          changes = new Promise<void>((resolve) => (release = resolve));
          await before;
        }
        let decision: Approval;
        try {
          const decided = decisions.then(() => engine.approve(call));
          decisions = decided.catch(() => {});
          decision = await decided;
        } catch (error) {
          release();
          throw error;
        }
        const wasAsked = asked.delete(call.id);
        const changesFiles = decision.allow && call.tool.mutates && (call.tool.subject.kind !== "command" || wasAsked);
        if (!changesFiles) release();
        if (!decision.allow) {
          if (signal.aborted) return { allow: false, reason: INTERRUPTED_REASON, shown: "interrupted" };
          const said = instead.get(call.id);
          instead.delete(call.id);
          return said ? { ...decision, reason: `${decision.reason}${USER_SAYS_INSTEAD}${said}` } : decision;
        }
        if (call.tool.mutates && !wasAsked) {
          deps.print(toolCallLine(deps.theme, call.tool.name, call.subject) + (call.subagent ? deps.theme.dim(` (subagent: ${call.subagent.description})`) : ""));
          lastShown = call.id;
        }
        return { ...decision, signal: register(call.id, call.tool.name), ...(changesFiles ? { done: release } : {}) };
      };
    },
  };
}

/**
 * What a key means while a question is on screen: y, a, n answer it; d asks for the whole diff or
 * command (offered when the preview was cut); esc and ctrl-c interrupt; ctrl-d leaves. Whether a y, a or n counts as an answer or as typing is the key dispatch's call
 * (lib/prompt/type-ahead.ts).
 */
export function answerFor(key: Key): AskAnswer | "details" | "interrupt" | "exit" | undefined {
  const typed = key.name === "text" ? key.text.toLowerCase() : "";
  if (typed === "d") return "details";
  if (typed === "y") return "once";
  if (typed === "a") return "always";
  if (typed === "n") return "deny";
  if (key.name === "escape" || key.name === "ctrl-c") return "interrupt";
  if (key.name === "ctrl-d") return "exit";
  return undefined;
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
}
