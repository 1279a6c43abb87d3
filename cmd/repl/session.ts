import type { Runtime } from "../../lib/agent/runtime.ts";
import { openSession, type SessionOptions } from "../../lib/app/session.ts";
import { resumableSessions, type SessionOption } from "../../lib/app/session-list.ts";
import type { SessionChoice } from "../../lib/app/start.ts";
import type { Todo } from "../../lib/notebook/schema.ts";
import type { AskAnswer, PermissionQuestion } from "../../lib/permissions/index.ts";
import { APPROVAL_MODES, type ApprovalMode } from "../../lib/config/permission-schema.ts";
import { describeMode, modeNotice } from "../../lib/permissions/modes.ts";
import { sessionChoice, type MainArgs } from "../args.ts";
import { createPlanMode } from "./plan-mode.ts";

type Env = Record<string, string | undefined>;

/** What the interactive loop works with; see openReplSession. */
export type ReplSession = Awaited<ReturnType<typeof openReplSession>>;

export type { SessionOption };

export type ReplSessionHooks = {
  onTodos(todos: readonly Todo[]): void;
  /** Lets the user choose among this directory's sessions (newest first); undefined: none chosen. `warnings`:
   *  the session files the listing skipped (damaged), to show with the picker so a missing session is explained. */
  pickSession(options: readonly SessionOption[], warnings: readonly string[]): Promise<string | undefined>;
};

/**
 * The interactive loop's view of the session service (lib/app/session.ts, shared with `shiro -p`):
 * what only the loop has on top of it — the session picker for `-r` alone, the approval modes
 * (shift-tab, /mode), saving an "always" answer, `/model`'s list, and `!cmd`. Opens the first
 * conversation (-c/-r honoured; `-r` without an id asks `pickSession`) before it resolves; a
 * ShiroError from -c/-r finding nothing ends the loop before it starts.
 */
export async function openReplSession(args: MainArgs, env: Env, startRuntime: Runtime, opts: ReplSessionHooks) {
  const options: Omit<SessionOptions, "choice"> = {
    runtime: startRuntime,
    flags: args.flags,
    env,
    memory: args.memory,
    interactive: true,
    yolo: args.yolo,
    onSaveError: (error) => process.stderr.write(`shiro: could not save the session: ${error instanceof Error ? error.message : String(error)}\n`),
    onTodos: opts.onTodos,
    hooks: { disabled: !args.hooks, trustProject: args.trustProjectHooks },
  };

  /** `-r` alone: the picker (of the sessions listed as the session service lists them); nothing saved here, or esc, starts a new session. */
  const firstChoice = async (): Promise<{ choice: SessionChoice; notice?: string }> => {
    if (args.resume !== "") return { choice: sessionChoice(args) };
    const { options: listed, warnings } = resumableSessions(startRuntime);
    if (listed.length === 0) return { choice: { type: "new" }, notice: [...warnings, "No saved sessions in this directory yet, so this is a new one."].join("\n") };
    const id = await opts.pickSession(listed, warnings);
    return { choice: id ? { type: "resume", idOrPrefix: id, ...(args.fork ? { fork: true } : {}) } : { type: "new" } };
  };
  const first = await firstChoice();
  const session = await openSession({ ...options, choice: first.choice });
  const runtime = session.runtime;

  /** The approval mode now (shift-tab, /mode); the policy reads it at every call. */
  let mode: ApprovalMode = runtime().settings.approvalMode;
  /** `auto` without a working sandbox is said once per session. */
  let autoExplained = false;
  const sandboxed = () => runtime().commands.runner.sandboxed;
  /** Plan mode (shift-tab, /mode plan; plan-mode.ts): the agent variant it came from, to go back to. */
  const plan = createPlanMode(session);
  /** Switches the mode (leaving plan mode); returns what to print (with, the first time auto cannot run commands freely, why). */
  const setMode = (next: ApprovalMode): string => {
    const left = plan.leave();
    mode = next;
    const notice = modeNotice(next, sandboxed() ? undefined : runtime().commands.status.state);
    const explain = notice !== undefined && !autoExplained;
    if (notice) autoExplained = true;
    return `${left ? `${left}\n` : ""}mode ${describeMode(next, sandboxed())}${explain ? `\n${notice}` : ""}`;
  };
  /** Into plan mode: the plan variant's tools and prompt; nothing runs unasked meanwhile (the policy's mode is ask). */
  const enterPlan = (): string => {
    const entered = plan.enter();
    if (plan.active()) mode = "ask";
    return entered;
  };

  const startNotices = [...(first.notice ? [first.notice] : []), ...session.hookNotices, ...session.startNotices];
  const startNotice = modeNotice(mode, sandboxed() ? undefined : runtime().commands.status.state);
  if (startNotice && !args.yolo) {
    startNotices.push(startNotice);
    autoExplained = true;
  }
  // However the process ends (even a forced exit), the session is flushed and released, and the sandbox ended.
  process.on("exit", session.close);

  return {
    ...session,
    startNotices,
    /** The spend ceiling, asked before each prompt: `refuse` stops the turn; `notice` is printed first. */
    beforeTurn: session.checkSpend,
    /** The permission engine around the loop's way of asking, reading the approval mode at every call. */
    permissions: (askUser: (question: PermissionQuestion) => Promise<AskAnswer>) => session.policy({ ask: askUser, mode: () => mode }),
    /** The approval mode, and what it does here (auto without a sandbox behaves as edits; plan mode is `plan`). */
    mode: () => ({ mode, planning: plan.active(), label: plan.active() ? "plan" : sandboxed() || mode !== "auto" ? mode : "auto (as edits: no sandbox)" }),
    /** `/mode <m>`: lines to print. */
    setMode,
    /** `/mode plan`: lines to print. */
    enterPlan,
    /**
     * shift-tab: ask → edits → auto → plan → ask. Plan mode changes the variant, which a turn under
     * way keeps: during a turn (`turnRunning`) plan is skipped (auto → ask), and plan mode is left only between turns.
     */
    cycleMode: (turnRunning = false): string => {
      if (plan.active()) return turnRunning ? "plan mode stays until this turn ends; shift-tab then leaves it" : setMode("ask");
      if (mode === APPROVAL_MODES.at(-1)) return turnRunning ? setMode(APPROVAL_MODES[0]) : enterPlan();
      return setMode(APPROVAL_MODES[APPROVAL_MODES.indexOf(mode) + 1]!);
    },
    /** The plan accepted (plan-handoff.ts): back to the variant before plan mode, in edits mode; lines to print. */
    acceptPlan: () => setMode("edits"),
    /** The variant accepting the plan goes back to; undefined while not planning. */
    planReturnsTo: plan.returnsTo,
    /** `/agent <name>`: an explicit variant ends plan mode (its approval mode stays ask). */
    switchAgent: async (agent: string) => {
      plan.forget();
      await session.switchAgent(agent);
    },
  };
}
