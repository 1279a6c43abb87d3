import * as v from "valibot";
import { defineTool, type AnyTool } from "./define.ts";

const Text = (what: string) => v.pipe(v.string(`${what} must be text`), v.trim(), v.minLength(1, `${what} must not be empty`), v.maxLength(2_000, `${what} is over 2,000 characters; say it in short`));
const schema = v.object({ summary: Text("summary"), verification: Text("verification") });

const DESCRIPTION =
  "End the session's goal (shown in the goal note) once it is achieved and you verified it: summary says what you did, verification how you checked it works (a command run and its result, a file read back). Call it only then; the work stops after this turn.";

/**
 * `goal_done`: offered only while the session has an active goal without a check command
 * (docs/goals.md). `done` records what the model said; the goal is met at the turn's end.
 */
export function createGoalDoneTool(done: (said: { summary: string; verification: string }) => void): AnyTool {
  return defineTool({
    name: "goal_done",
    description: DESCRIPTION,
    schema,
    mutates: false,
    subagents: "none",
    subject: { kind: "text", of: (input) => input.summary.split("\n")[0]!.slice(0, 60) },
    defaultDecision: "allow",
    async execute(input) {
      done(input);
      return { output: "The goal is marked done; finish this turn with a short answer to the user.", summary: "goal done" };
    },
  });
}
