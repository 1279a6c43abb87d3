/**
 * When a key may answer a question that appeared in the middle of typing. A person typing ahead
 * during a turn does not stop the instant a question shows up: the letters already on their way
 * (the `y` of "your", the `n` of "then") must not allow or deny anything. So a key answers only
 * once the keyboard has been quiet for `quietMs` since the question appeared *and* since the key
 * before it; every key sooner is ordinary typing and goes to the input line. Pastes never answer.
 */

/** How long the keyboard must be quiet before a key can answer: longer than the gap between two keys of someone typing, shorter than reading a question. */
export const ANSWER_QUIET_MS = 450;

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
};

export function createTypeAheadGuard(opts: { now?: () => number; quietMs?: number } = {}): TypeAheadGuard {
  const now = opts.now ?? Date.now;
  const quietMs = opts.quietMs ?? ANSWER_QUIET_MS;
  let lastKeyAt = Number.NEGATIVE_INFINITY;
  let shownAt = Number.NEGATIVE_INFINITY;
  let wentToInput = false;
  return {
    questionShown() {
      shownAt = now();
      wentToInput = false;
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
  };
}
