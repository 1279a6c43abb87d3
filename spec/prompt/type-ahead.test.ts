import { expect, test } from "bun:test";
import { ANSWER_QUIET_MS, createTypeAheadGuard, WORD_FOLLOW_MS } from "../../lib/prompt/type-ahead.ts";

/** A guard on a clock the test moves by hand. */
function guarded() {
  let t = 10_000;
  const guard = createTypeAheadGuard({ now: () => t });
  return { guard, at: (ms: number) => (t = ms) };
}

test("a key right after the question appears is typing, even after a long pause before it", () => {
  const { guard, at } = guarded();
  at(10_000);
  guard.questionShown();
  at(10_050); // the first key of "your", started as the question came up
  expect(guard.press("key")).toBe(false);
  expect(guard.diverted()).toBe(true);
});

test("keys while typing goes on never answer; the first key after a quiet moment does", () => {
  const { guard, at } = guarded();
  at(9_900);
  guard.press("key"); // typing ahead before any question
  at(10_000);
  guard.questionShown();
  // "then please run" typed at 120 ms a key, on well past the question's first moment: all typing.
  let last = 0;
  for (let ms = 10_100; ms < 12_000; ms += 120) {
    at((last = ms));
    expect(guard.press("key")).toBe(false);
  }
  at(last + ANSWER_QUIET_MS - 1);
  expect(guard.press("key")).toBe(false); // not quite quiet: and it starts the wait again
  at(last + 2 * ANSWER_QUIET_MS);
  expect(guard.press("key")).toBe(true);
});

test("a person who was not typing answers once the question has been up for the quiet moment", () => {
  const { guard, at } = guarded();
  at(10_000);
  guard.questionShown();
  at(10_000 + ANSWER_QUIET_MS);
  expect(guard.press("key")).toBe(true);
  expect(guard.diverted()).toBe(false);
});

test("a paste never answers, and it counts as typing for the key after it", () => {
  const { guard, at } = guarded();
  at(10_000);
  guard.questionShown();
  at(20_000);
  expect(guard.press("paste")).toBe(false);
  expect(guard.diverted()).toBe(true);
  at(20_100);
  expect(guard.press("key")).toBe(false);
  at(20_100 + ANSWER_QUIET_MS);
  expect(guard.press("key")).toBe(true);
});

test("each new question starts its own quiet moment and forgets the last one's diverted keys", () => {
  const { guard, at } = guarded();
  at(10_000);
  guard.questionShown();
  at(10_100);
  guard.press("key");
  expect(guard.diverted()).toBe(true);
  at(11_000);
  guard.questionShown();
  expect(guard.diverted()).toBe(false);
  at(11_000 + ANSWER_QUIET_MS - 10);
  expect(guard.press("key")).toBe(false);
});

test("with no quiet moment (quietMs 0) every key may answer", () => {
  const guard = createTypeAheadGuard({ now: () => 5, quietMs: 0 });
  guard.questionShown();
  expect(guard.press("key")).toBe(true);
  expect(guard.press("paste")).toBe(false);
});

test("an answer key from someone not typing answers at once: no hold", () => {
  const { guard, at } = guarded();
  at(10_000);
  guard.questionShown();
  at(11_000);
  expect(guard.press("key")).toBe(true);
  expect(guard.holdMs(false)).toBe(0);
});

test("while the user is typing, an answer key after a pause is held for a word to follow", () => {
  // A draft in the input.
  const drafting = guarded();
  drafting.at(10_000);
  drafting.guard.questionShown();
  drafting.at(11_000);
  expect(drafting.guard.press("key")).toBe(true);
  expect(drafting.guard.holdMs(true)).toBe(WORD_FOLLOW_MS);

  // Keys that went to the input under this question (the draft since cleared).
  const diverted = guarded();
  diverted.at(10_000);
  diverted.guard.questionShown();
  diverted.at(10_100);
  diverted.guard.press("key");
  diverted.at(11_000);
  expect(diverted.guard.press("key")).toBe(true);
  expect(diverted.guard.holdMs(false)).toBe(WORD_FOLLOW_MS);

  // Keys coming as the question appeared.
  const typing = guarded();
  typing.at(9_900);
  typing.guard.press("key");
  typing.at(10_000);
  typing.guard.questionShown();
  typing.at(11_000);
  expect(typing.guard.press("key")).toBe(true);
  expect(typing.guard.holdMs(false)).toBe(WORD_FOLLOW_MS);
});

test("the next question of someone who stopped typing long before it is not held", () => {
  const { guard, at } = guarded();
  at(5_000);
  guard.press("key");
  at(10_000);
  guard.questionShown();
  at(11_000);
  expect(guard.press("key")).toBe(true);
  expect(guard.holdMs(false)).toBe(0);
});

test("the hold is never longer than the quiet moment (none with quietMs 0)", () => {
  expect(createTypeAheadGuard({ now: () => 5, quietMs: 0 }).holdMs(true)).toBe(0);
  expect(createTypeAheadGuard({ now: () => 5, quietMs: 200 }).holdMs(true)).toBe(200);
  expect(WORD_FOLLOW_MS).toBeLessThan(ANSWER_QUIET_MS);
});
