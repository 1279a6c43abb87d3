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

test("a prompt with an image (text and image parts) counts as the newest prompt too", async () => {
  const { promptContent, imageBlock } = await import("../../lib/image/part.ts");
  const text = `what is this @shot.png\n\n${imageBlock("shot.png", { ref: `${"a".repeat(64)}.png`, mediaType: "image/png", name: "shot.png", width: 2, height: 2 })}`;
  const withImage: ModelMessage = { role: "user", content: promptContent(text) as never };
  expect(typeof withImage.content).not.toBe("string");
  // The server refused the image: the turn failed after an answered one.
  expect(sessionOutcome(markTurnFailure([prompt("first"), answer("done"), withImage], text, "provider returned 400: image input is not supported"))).toBe("last-turn-failed");
  expect(sessionOutcome([withImage])).toBe("no-answer");
  expect(sessionOutcome([withImage, answer("a screenshot")])).toBeUndefined();
});
