/**
 * When a key may answer a question that appeared in the middle of typing. A person typing ahead
 * during a turn does not stop the instant a question shows up: the letters already on their way
 * (the `y` of "your", the `n` of "then") must not allow or deny anything. So a key answers only
 * once the keyboard has been quiet for `quietMs` since the question appeared *and* since the key
 * before it; every key sooner is ordinary typing and goes to the input line. Pastes never answer.
 *
 * A pause in the middle of a sentence is longer than that, though: someone with a draft in the
 * input who stops to think and goes on with "yes, and…" would answer with its `y`. So while the
 * user is typing — a draft is in the input, a key went there since the question appeared, or they
 * were typing as it appeared — an answer key is held for `wordMs` first (`holdMs`): if more text
 * follows within it, the key was the start of a word and goes to the input with what follows; a
 * lone key answers once the hold is over. Someone who was not typing answers at once.
 */

/** How long the keyboard must be quiet before a key can answer: longer than the gap between two keys of someone typing, shorter than reading a question. */
export const ANSWER_QUIET_MS = 450;

/**
 * How long an answer key is held while the user is typing, for a following key that makes it a
 * word: longer than the gap between two letters of a word, short enough not to feel slow. Never
 * longer than the quiet moment.
 */
export const WORD_FOLLOW_MS = 350;

export type TypeAheadGuard = {
  /** A question appeared now: its quiet moment starts. */
  questionShown(): void;
  /**
   * A key arrived (any key, question or not). True when it comes after the quiet moment and so
   * may answer the question on screen; false when it is part of ongoing typing.
   */
  press(kind: "key" | "paste"): boolean;
  /** True once a key typed while the current question was up went to the input instead of answering it. */
  diverted(): boolean;
  /**
   * How long to hold the answer key just pressed (after press() said it may answer) in case more
   * text follows: `wordMs` while the user is typing (`draft`: the input holds unsent text; or a key
   * went to the input under this question; or keys were coming as it appeared), else 0: it answers now.
   */
  holdMs(draft: boolean): number;
};

export function createTypeAheadGuard(opts: { now?: () => number; quietMs?: number; wordMs?: number } = {}): TypeAheadGuard {
  const now = opts.now ?? Date.now;
  const quietMs = opts.quietMs ?? ANSWER_QUIET_MS;
  const wordMs = Math.min(opts.wordMs ?? WORD_FOLLOW_MS, quietMs);
  let lastKeyAt = Number.NEGATIVE_INFINITY;
  let shownAt = Number.NEGATIVE_INFINITY;
  let wentToInput = false;
  /** Keys were coming when the current question appeared (the last one less than quietMs before it). */
  let typingWhenShown = false;
  return {
    questionShown() {
      shownAt = now();
      wentToInput = false;
      typingWhenShown = shownAt - lastKeyAt < quietMs;
    },
    press(kind) {
      const at = now();
      const quiet = at - Math.max(lastKeyAt, shownAt) >= quietMs;
      lastKeyAt = at;
      const answers = kind === "key" && quiet;
      if (!answers && shownAt > Number.NEGATIVE_INFINITY) wentToInput = true;
      return answers;
    },
    diverted: () => wentToInput,
    holdMs: (draft) => (draft || wentToInput || typingWhenShown ? wordMs : 0),
  };
}
