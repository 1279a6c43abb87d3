import type { GoalState } from "../sessions/schema.ts";

export type { GoalState };

/** The goal turns a goal gets when no budget is given (`--max-turns`). */
export const DEFAULT_GOAL_TURNS = 10;
/** How long the check may run before it is stopped (and counts as failing). */
export const GOAL_CHECK_TIMEOUT_MS = 600_000;
/** How much of the check's output the model reads and the result record keeps: its end. */
export const GOAL_CHECK_TAIL_CHARS = 2_000;

/** A new goal, active, no turn run yet. `minutes`: the optional wall-clock limit, from `now`. */
export function newGoal(opts: { objective: string; until?: string; maxTurns?: number; minutes?: number; now?: Date }): GoalState {
  const deadline = opts.minutes !== undefined ? new Date((opts.now ?? new Date()).getTime() + opts.minutes * 60_000).toISOString() : undefined;
  return {
    objective: opts.objective,
    ...(opts.until ? { until: opts.until } : {}),
    maxTurns: opts.maxTurns ?? DEFAULT_GOAL_TURNS,
    turns: 0,
    ...(deadline ? { deadline } : {}),
    status: "active",
  };
}

/** The end of a check's output, at most GOAL_CHECK_TAIL_CHARS, cut at a line start when it can be. */
export function checkTail(output: string): string {
  const text = output.trimEnd();
  if (text.length <= GOAL_CHECK_TAIL_CHARS) return text;
  const cut = text.slice(-GOAL_CHECK_TAIL_CHARS);
  const line = cut.indexOf("\n");
  return `…${line >= 0 && line < cut.length - 1 ? cut.slice(line + 1) : cut}`;
}

/** Whether the goal's budget is spent: its turns, or its wall-clock limit. */
export function budgetSpent(goal: GoalState, now: Date = new Date()): "turns" | "time" | undefined {
  if (goal.turns >= goal.maxTurns) return "turns";
  if (goal.deadline && now.getTime() >= Date.parse(goal.deadline)) return "time";
  return undefined;
}

/** The user message that starts the next goal turn after the check failed. */
export function checkFailedMessage(goal: GoalState): string {
  const check = goal.check;
  const how = check?.exitCode === null || check?.exitCode === undefined ? "did not finish" : `failed (exit ${check.exitCode})`;
  return `[shiro] The goal's check \`${goal.until}\` ${how}:\n${check?.tail || "(no output)"}\n— keep going: work toward the goal until the check passes (turn ${goal.turns + 1} of ${goal.maxTurns}).`;
}

/** The user message that starts the next goal turn when the model ended a turn without goal_done. */
export function reminderMessage(goal: GoalState): string {
  return `[shiro] The goal is not done yet (turn ${goal.turns + 1} of ${goal.maxTurns}). Keep working toward it; when it is achieved and verified, call goal_done with what you did and how you verified it.`;
}

/** How the goal stands, for the note in every request and for `/goal` alone. */
export function describeGoal(goal: GoalState): string {
  const lines = [`Objective: ${goal.objective}`];
  const state = { active: "active", paused: "paused (/goal resume goes on)", met: "met", unmet: "ended unmet" }[goal.status];
  lines.push(`State: ${state}, turn ${goal.turns} of ${goal.maxTurns}${goal.deadline ? `, until ${goal.deadline}` : ""}`);
  if (goal.until) {
    const check = goal.check ? (goal.check.exitCode === 0 ? "passing" : `failing (${goal.check.exitCode === null ? "did not finish" : `exit ${goal.check.exitCode}`})`) : "not run yet";
    lines.push(`Check: \`${goal.until}\`, ${check}; shiro runs it after each turn, and the goal is met when it exits 0.`);
  } else if (goal.done) lines.push(`Done: ${goal.done.summary} (verified: ${goal.done.verification})`);
  else lines.push("When it is achieved and verified, call goal_done with what you did and how you verified it.");
  return lines.join("\n");
}

/** How the goal note starts: who wrote it, so the model does not take it for the user speaking. */
export const GOAL_NOTE_HEADER = "[shiro] The goal of this session (it stays until met; this note is from shiro, not the user):";

/** The goal as the request's note renders it: nothing once it is over. */
export function goalNote(goal: GoalState | undefined): string {
  if (!goal || (goal.status !== "active" && goal.status !== "paused")) return "";
  return `${GOAL_NOTE_HEADER}\n${describeGoal(goal)}`;
}

/** The status line's words: `goal · turn 3/10 · check failing`. */
export function goalStatus(goal: GoalState | undefined): string | undefined {
  if (!goal) return undefined;
  const turn = `turn ${goal.turns}/${goal.maxTurns}`;
  if (goal.status === "met") return "goal met";
  if (goal.status === "unmet") return `goal unmet · ${turn}`;
  const check = goal.until ? (goal.check ? (goal.check.exitCode === 0 ? " · check passing" : " · check failing") : "") : "";
  return `goal${goal.status === "paused" ? " paused" : ""} · ${turn}${check}`;
}

/** What `/goal …` asks for. */
export type GoalCommand =
  | { type: "show" }
  | { type: "clear" }
  | { type: "resume" }
  | { type: "set"; objective: string; until?: string; maxTurns?: number; minutes?: number }
  | { type: "error"; message: string };

const GOAL_USAGE = '/goal <objective> [--until "command"] [--max-turns n] [--max-minutes n]';

/**
 * `/goal`'s words: nothing (show), `clear`, `resume`, or an objective with its options, which may
 * come anywhere; a check with spaces is quoted (`--until "npm test"`). Pure.
 */
export function parseGoalArgs(args: string): GoalCommand {
  const text = args.trim();
  if (text === "") return { type: "show" };
  if (text === "clear" || text === "resume") return { type: text };
  const words = [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => ({ word: m[1] ?? m[2] ?? m[3]!, raw: m[0] }));
  const objective: string[] = [];
  const set: { until?: string; maxTurns?: number; minutes?: number } = {};
  for (let i = 0; i < words.length; i++) {
    const { word, raw } = words[i]!;
    if (raw !== "--until" && raw !== "--max-turns" && raw !== "--max-minutes") {
      objective.push(raw);
      continue;
    }
    const value = words[++i]?.word;
    if (value === undefined || value.trim() === "") return { type: "error", message: `${word} needs a value: ${GOAL_USAGE}` };
    if (word === "--until") set.until = value.trim();
    else if (word === "--max-turns") {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 1000) return { type: "error", message: `--max-turns must be a whole number from 1 to 1000 (got ${value})` };
      set.maxTurns = n;
    } else {
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0) return { type: "error", message: `--max-minutes must be a number of minutes above 0 (got ${value})` };
      set.minutes = n;
    }
  }
  if (objective.length === 0) return { type: "error", message: `the goal needs an objective: ${GOAL_USAGE}` };
  return { type: "set", objective: objective.join(" "), ...set };
}
