import { describe, expect, test } from "bun:test";
import { budgetSpent, checkTail, GOAL_CHECK_TAIL_CHARS, goalNote, goalStatus, newGoal, parseGoalArgs } from "../../lib/agent/goal.ts";
import { statusSegments } from "../../lib/prompt/status-line.ts";

describe("/goal's words", () => {
  test("an objective with a quoted check and a budget, options anywhere", () => {
    expect(parseGoalArgs('fix the build --until "npm test -- --ci" --max-turns 4')).toEqual({ type: "set", objective: "fix the build", until: "npm test -- --ci", maxTurns: 4 });
    expect(parseGoalArgs("--max-minutes 30 tidy the docs")).toEqual({ type: "set", objective: "tidy the docs", minutes: 30 });
  });
  test("alone, clear and resume", () => {
    expect(parseGoalArgs("")).toEqual({ type: "show" });
    expect(parseGoalArgs(" clear ")).toEqual({ type: "clear" });
    expect(parseGoalArgs("resume")).toEqual({ type: "resume" });
  });
  test("a bad budget, a missing value or no objective is one line saying how", () => {
    expect(parseGoalArgs("x --max-turns 0")).toMatchObject({ type: "error", message: expect.stringContaining("--max-turns must be a whole number") });
    expect(parseGoalArgs("x --until")).toMatchObject({ type: "error", message: expect.stringContaining("--until needs a value") });
    expect(parseGoalArgs('--until "npm test"')).toMatchObject({ type: "error", message: expect.stringContaining("needs an objective") });
  });
});

describe("a goal's state", () => {
  test("the budget is spent by turns or by the clock", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const goal = newGoal({ objective: "x", maxTurns: 2, minutes: 5, now });
    expect(budgetSpent(goal, now)).toBeUndefined();
    expect(budgetSpent({ ...goal, turns: 2 }, now)).toBe("turns");
    expect(budgetSpent(goal, new Date("2026-01-01T00:05:00Z"))).toBe("time");
  });
  test("the check's tail keeps the end of a long output, from a line start", () => {
    const long = Array.from({ length: 500 }, (_, i) => `line ${i}`).join("\n");
    const tail = checkTail(long);
    expect(tail.length).toBeLessThanOrEqual(GOAL_CHECK_TAIL_CHARS + 1);
    expect(tail.endsWith("line 499")).toBe(true);
    expect(tail.split("\n")[1]).toMatch(/^line \d+$/);
  });
  test("the status line's words, amber while the check fails or the goal is paused", () => {
    const goal = { ...newGoal({ objective: "x", until: "npm test", maxTurns: 10 }), turns: 3, check: { exitCode: 1, tail: "" } };
    expect(goalStatus(goal)).toBe("goal · turn 3/10 · check failing");
    expect(goalStatus({ ...goal, status: "paused" })).toBe("goal paused · turn 3/10 · check failing");
    const segments = statusSegments({ model: "m", requestTokens: 1, windowTokens: 10, conversationTokens: 1, budgetTokens: 10, goal: goalStatus(goal)! });
    expect(segments.find((s) => s.text.startsWith("goal"))).toMatchObject({ tone: "amber" });
  });
  test("the note is there while the goal is active or paused, and gone once it is over", () => {
    const goal = newGoal({ objective: "ship it" });
    expect(goalNote(goal)).toContain("Objective: ship it");
    expect(goalNote({ ...goal, status: "paused" })).toContain("Objective: ship it");
    expect(goalNote({ ...goal, status: "met" })).toBe("");
    expect(goalNote(undefined)).toBe("");
  });
});

describe("the goal in the session file", () => {
  const record = (goal: unknown) => ({
    version: 1,
    id: "01a25164-f873-7220-91de-de7e2752ea14",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    cwd: "/w",
    provider: "openai",
    model: "m",
    title: "t",
    inputTokens: 0,
    outputTokens: 0,
    goal,
    messages: [{ role: "user", content: "hi" }],
  });
  test("is written and read back whole", async () => {
    const { parseSession, serializeSession } = await import("../../lib/sessions/serialize.ts");
    const goal = { ...newGoal({ objective: "ship it", until: "npm test", maxTurns: 4 }), turns: 2, status: "paused" as const, check: { exitCode: 1, tail: "1 failed" } };
    const parsed = parseSession(JSON.stringify(record(goal)));
    expect(parsed.ok && parsed.record.goal).toEqual(goal);
    const again = parsed.ok ? parseSession(serializeSession(parsed.record)) : undefined;
    expect(again?.ok && again.record.goal).toEqual(goal);
  });
  test("one that does not read is dropped, never the session", async () => {
    const { parseSession } = await import("../../lib/sessions/serialize.ts");
    const parsed = parseSession(JSON.stringify(record({ objective: 3, status: "someday" })));
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && parsed.record.goal).toBeUndefined();
  });
});
