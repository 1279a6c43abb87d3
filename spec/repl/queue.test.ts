import { describe, expect, test } from "bun:test";
import { createPromptQueue, describeQueue } from "../../lib/prompt/queue.ts";

describe("the prompt queue", () => {
  test("runs in the order typed", () => {
    const queue = createPromptQueue();
    expect(queue.push("one")).toBe(1);
    expect(queue.push("two")).toBe(2);
    expect(queue.shift()).toBe("one");
    expect(queue.shift()).toBe("two");
    expect(queue.shift()).toBeUndefined();
  });

  test("clear drops everything and says how much", () => {
    const queue = createPromptQueue();
    queue.push("a");
    queue.push("/cost");
    expect(queue.clear()).toBe(2);
    expect(queue.size).toBe(0);
    expect(queue.items()).toEqual([]);
  });

  test("blank prompts are not queued", () => {
    const queue = createPromptQueue();
    expect(queue.push("  ")).toBe(0);
  });

  test("items() is a snapshot", () => {
    const queue = createPromptQueue();
    queue.push("a");
    const items = queue.items();
    queue.push("b");
    expect(items).toEqual(["a"]);
  });
});

describe("describeQueue", () => {
  test("shows the count and each prompt on one line", () => {
    expect(describeQueue(["fix the test", "/cost"])).toBe("queued (2): fix the test · /cost");
    expect(describeQueue([])).toBe("");
  });

  test("flattens and clips long prompts", () => {
    const line = describeQueue(["a\nb", "x".repeat(100)], 10);
    expect(line).toBe(`queued (2): a b · ${"x".repeat(9)}…`);
  });
});
