import type { Conversation, PromptResult } from "../agent/conversation.ts";
import { budgetSpent, checkFailedMessage, newGoal, reminderMessage, type GoalState } from "../agent/goal.ts";
import type { SpendCheck } from "./session.ts";

type RunIo = Parameters<Conversation["runPrompt"]>[1];

/**
 * How a goal's run ended: `met` (the check passed, or goal_done); `unmet` (its budget ran out
 * first); `stopped` (the turn failed or was interrupted, or the goal was cleared: it is paused,
 * and `/goal resume` or `-c` goes on); `spend` (the spend ceiling refused the next turn).
 */
export type { GoalState };
export { describeGoal, goalStatus, newGoal, parseGoalArgs } from "../agent/goal.ts";

/**
 * The goal a headless run works on, set on the conversation. `--goal` or `--until` set a new one
 * (the prompt is the objective without --goal). Otherwise the resumed session's own goes on: an
 * active or paused one as it was, and with `--max-turns`/`--max-minutes` (a new budget; the
 * turns run so far count) one that was not met, ended unmet included. Undefined: no goal.
 */
export function goalForRun(conversation: Conversation, flags: { objective?: string; until?: string; maxTurns?: number; minutes?: number } | undefined, prompt: string, now = new Date()): GoalState | undefined {
  const saved = conversation.goal();
  if (flags?.objective !== undefined || flags?.until !== undefined) conversation.setGoal(newGoal({ ...flags, objective: flags.objective ?? prompt, now }));
  else if (saved && saved.status !== "met" && flags) {
    const budget = newGoal({ objective: saved.objective, ...flags, now });
    conversation.setGoal({ ...saved, status: "active", maxTurns: flags.maxTurns ?? saved.maxTurns, ...(budget.deadline ? { deadline: budget.deadline } : {}) });
  } else if (saved && (saved.status === "active" || saved.status === "paused")) conversation.setGoal({ ...saved, status: "active" });
  else if (flags) conversation.setGoal(newGoal({ ...flags, objective: prompt, now }));
  const goal = conversation.goal();
  return goal?.status === "active" ? goal : undefined;
}

export type GoalEnd = "met" | "unmet" | "stopped" | "spend";

export type GoalRun = { result: PromptResult; goal: GoalState | undefined; ended: GoalEnd; spendRefusal?: string };

export type GoalRunDeps = {
  conversation: () => Conversation;
  /** The check, run as `!cmd` runs (user-shell.ts check). */
  check: (command: string, signal: AbortSignal) => Promise<{ exitCode: number | null; tail: string }>;
  /** The spend ceiling, asked before each turn after the first. */
  checkSpend: () => SpendCheck;
  now?: () => Date;
};

/**
 * Runs the session's goal (docs/goals.md) from `prompt`: a turn, then the check (or goal_done),
 * then the next turn with the check's output or a reminder, until the goal is met, its budget
 * (turns, time) runs out, or a turn fails or is stopped. Each prompt's turn counts once, however
 * many times Stop hooks continued it (conversation.runPrompt keeps those inside the turn); a
 * turn the step cap stopped counts. The goal is saved with the session after every turn.
 */
export async function runGoal(deps: GoalRunDeps, prompt: string, io: RunIo): Promise<GoalRun> {
  const now = deps.now ?? (() => new Date());
  const conversation = deps.conversation();
  let total: PromptResult | undefined;
  let message = prompt;
  // What the user typed goes with the first turn only: shiro wrote the messages after it.
  const { typed: _typed, ...later } = io;
  for (let first = true; ; first = false) {
    const result = await conversation.runPrompt(message, first ? io : later);
    total = total ? joinResults(total, result) : result;
    let goal = conversation.goal();
    if (!goal || result.blocked !== undefined) return { result: total, goal, ended: "stopped" };
    goal = { ...goal, turns: goal.turns + 1 };
    if (result.status === "error" || result.status === "interrupted" || io.signal.aborted) {
      // Stopped by the user (esc), a signal or a failure: the goal waits to be resumed.
      if (goal.status === "active") goal = { ...goal, status: "paused" };
      conversation.setGoal(goal);
      return { result: total, goal, ended: goal.status === "met" ? "met" : "stopped" };
    }
    if (goal.until && goal.status === "active") {
      const check = await deps.check(goal.until, io.signal);
      const passed = check.exitCode === 0;
      goal = { ...goal, check, ...(passed ? { status: "met" as const } : {}) };
      io.emit({ type: "goal-check", command: goal.until!, exitCode: check.exitCode, passed, turn: goal.turns, maxTurns: goal.maxTurns, tail: check.tail });
      // Stopped while the check ran (esc, a signal): the goal waits, as after a stopped turn.
      if (!passed && io.signal.aborted) {
        goal = { ...goal, status: "paused" };
        conversation.setGoal(goal);
        return { result: { ...total, status: "interrupted" }, goal, ended: "stopped" };
      }
    }
    if (goal.status === "met") {
      conversation.setGoal(goal);
      io.emit({ type: "notice", message: metLine(goal) });
      return { result: total, goal, ended: "met" };
    }
    if (goal.status !== "active") {
      conversation.setGoal(goal);
      return { result: total, goal, ended: "stopped" };
    }
    const spent = budgetSpent(goal, now());
    if (spent) {
      goal = { ...goal, status: "unmet" };
      conversation.setGoal(goal);
      io.emit({ type: "notice", message: unmetLine(goal, spent) });
      return { result: total, goal, ended: "unmet" };
    }
    conversation.setGoal(goal);
    const spend = deps.checkSpend();
    if (spend?.refuse) {
      goal = { ...goal, status: "paused" };
      conversation.setGoal(goal);
      return { result: total, goal, ended: "spend", spendRefusal: spend.refuse };
    }
    if (spend?.notice) io.emit({ type: "notice", message: spend.notice });
    message = goal.until ? checkFailedMessage(goal) : reminderMessage(goal);
  }
}

/** The first message of a goal resumed (`/goal resume`, a headless run on a session with a goal) without a prompt of its own. */
export function resumeMessage(goal: GoalState): string {
  if (!goal.until) return reminderMessage(goal);
  if (goal.check) return checkFailedMessage(goal);
  return `[shiro] Go on working toward the goal (turn ${goal.turns + 1} of ${goal.maxTurns}); shiro runs its check \`${goal.until}\` when this turn ends.`;
}

const turnsWord = (n: number) => (n === 1 ? "1 turn" : `${n} turns`);

function metLine(goal: GoalState): string {
  return goal.until ? `goal met: the check \`${goal.until}\` passed after ${turnsWord(goal.turns)}` : `goal met after ${turnsWord(goal.turns)}: ${goal.done?.summary ?? "goal_done was called"}`;
}

function unmetLine(goal: GoalState, spent: "turns" | "time"): string {
  const budget = spent === "turns" ? `its ${turnsWord(goal.maxTurns)}` : "its time limit";
  const check = goal.until ? `; the check \`${goal.until}\` still fails` : "; goal_done was not called";
  return `goal not met within ${budget}${check}. It stays in the session: a larger budget goes on with it (headless: -c with --max-turns above ${goal.turns}).`;
}

/** The turns of one goal run as one result: steps, tokens and changes added up, the last turn's status. */
function joinResults(first: PromptResult, next: PromptResult): PromptResult {
  const changes =
    first.changes && next.changes
      ? { ...next.changes, files: first.changes.files + next.changes.files, unkept: first.changes.unkept + next.changes.unkept, commands: first.changes.commands + next.changes.commands }
      : (next.changes ?? first.changes);
  const stated = first.usage.costUsd !== undefined && next.usage.costUsd !== undefined ? { costUsd: first.usage.costUsd + next.usage.costUsd } : {};
  return {
    ...next,
    steps: first.steps + next.steps,
    usage: { inputTokens: first.usage.inputTokens + next.usage.inputTokens, outputTokens: first.usage.outputTokens + next.usage.outputTokens, ...stated },
    messages: [...first.messages, ...next.messages],
    ...(changes ? { changes } : {}),
  };
}
