import { describeGoal, newGoal, parseGoalArgs, resumeMessage } from "../../lib/app/goal-run.ts";
import type { CommandEnv } from "./commands.ts";

/**
 * `/goal` (docs/goals.md): alone shows the goal; `/goal <objective> [--until …]` sets it and
 * starts its first turn; `clear` ends it; `resume` goes on with a paused one. While a goal is
 * active every prompt's turn runs as the goal's (turn-runner.ts).
 */
export function goalCommand(args: string, env: CommandEnv): void {
  const { session, theme } = env;
  const conversation = session.conversation();
  const goal = conversation.goal();
  const parsed = parseGoalArgs(args);
  switch (parsed.type) {
    case "error":
      return env.print(theme.warn(parsed.message));
    case "show":
      return env.print(goal ? describeGoal(goal) : 'No goal. /goal <objective> [--until "command"] [--max-turns n] sets one.');
    case "clear":
      if (!goal) return env.print("No goal to clear.");
      conversation.setGoal(undefined);
      return env.print(`Goal cleared: ${goal.objective}`);
    case "resume":
      if (!goal) return env.print("No goal to resume: /goal <objective> sets one.");
      if (goal.status === "met") return env.print("The goal is met already. /goal <objective> sets a new one.");
      if (goal.status === "unmet") return env.print("The goal ran out of its budget. Set it again with /goal … --max-turns n to give it more turns.");
      conversation.setGoal({ ...goal, status: "active" });
      return env.send(resumeMessage(goal));
    case "set": {
      const { type: _type, ...set } = parsed;
      conversation.setGoal(newGoal(set));
      env.print(theme.dim(`goal set: ${set.objective}${set.until ? ` · check \`${set.until}\`` : ""} · up to ${conversation.goal()!.maxTurns} turns (esc pauses; /goal resume, /goal clear)`));
      return env.send(set.objective);
    }
    default:
      return parsed satisfies never;
  }
}
