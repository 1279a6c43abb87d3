import { expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { sessionOutcome } from "../../lib/sessions/outcome.ts";
import { markTurnFailure } from "../../lib/agent/turn-failure.ts";
import { interruptionMessage } from "../../lib/text/interruption.ts";

const prompt = (text: string): ModelMessage => ({ role: "user", content: text });
const answer = (text: string): ModelMessage => ({ role: "assistant", content: [{ type: "text", text }] });

test("a session whose prompts never got an answer is no-answer, however the run ended", () => {
  expect(sessionOutcome([prompt("hi")])).toBe("no-answer"); // killed while waiting
  expect(sessionOutcome(markTurnFailure([prompt("hi")], "hi", "provider returned 400: no"))).toBe("no-answer"); // refused
  expect(sessionOutcome([prompt("hi"), interruptionMessage()])).toBe("no-answer"); // stopped before a word
});

test("one that got answers and whose newest turn failed is last-turn-failed, not no-answer", () => {
  const history = [prompt("first"), answer("done"), prompt("second")];
  expect(sessionOutcome(history)).toBe("last-turn-failed");
  expect(sessionOutcome(markTurnFailure([...history, answer("partly")], "second", "network failed"))).toBe("last-turn-failed");
});

test("an answered newest prompt, or no messages, has no outcome to mark", () => {
  expect(sessionOutcome([])).toBeUndefined();
  expect(sessionOutcome([prompt("hi"), answer("hello")])).toBeUndefined();
  // The failed prompt sent again and answered: its mark is taken off, so is the outcome.
  const retried = markTurnFailure(markTurnFailure([prompt("hi")], "hi", "refused"), "hi", undefined);
  expect(sessionOutcome([...retried, answer("hello")])).toBeUndefined();
  expect(sessionOutcome([prompt("a"), answer("b"), interruptionMessage()])).toBeUndefined(); // stopped after output: answered
});
