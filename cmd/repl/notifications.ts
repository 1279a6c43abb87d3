/**
 * The loop's Notification hooks (docs/hooks.md): `permission_prompt` once a question has waited
 * `questionMs` without an answer, `idle_prompt` once `idleMs` passed after a turn with no new
 * prompt. Timers only: whether the terminal has focus is not asked (many cannot say). The same
 * events go at once to `alerts` (desktop-notify.ts), which tells a user whose terminal lost focus.
 */
import type { Alerts } from "./desktop-notify.ts";
export type { Alerts };

export type NotificationType = "permission_prompt" | "idle_prompt";

export const NOTIFY_QUESTION_MS = 6_000;
export const NOTIFY_IDLE_MS = 60_000;

export function createNotifications(notify: (type: NotificationType, message: string) => void, delays: { questionMs: number; idleMs: number } = { questionMs: NOTIFY_QUESTION_MS, idleMs: NOTIFY_IDLE_MS }, alerts?: Alerts, session: () => string | undefined = () => undefined) {
  let question: ReturnType<typeof setTimeout> | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let turnOpen = false; // the end of a turn is said once (turnEnded may be called again for it)
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(run, ms);
    timer.unref?.(); // a waiting notification never keeps shiro running
    return timer;
  };
  return {
    /** A question appeared; `asking` says what for ("to run bash: npm test"). */
    questionOpened(asking: string) {
      clearTimeout(question);
      const what = Bun.stripANSI(asking).split("\n")[0]!.trim();
      question = later(delays.questionMs, () => notify("permission_prompt", `shiro needs your permission ${what}`));
      alerts?.alert("question", `shiro needs your permission ${what}`, session());
    },
    questionClosed: () => clearTimeout(question),
    turnEnded() {
      clearTimeout(idle);
      idle = later(delays.idleMs, () => notify("idle_prompt", "shiro is waiting for your input"));
      if (turnOpen) alerts?.alert("turn-end", "the turn is done; shiro is waiting for your input", session());
      turnOpen = false;
    },
    promptSent() {
      clearTimeout(idle);
      turnOpen = true;
      alerts?.turnStarted();
    },
    close() {
      clearTimeout(question);
      clearTimeout(idle);
    },
  };
}

/** `SHIRO_NOTIFY_MS="question,idle"` (milliseconds): only tests change the delays. */
export function notifyDelays(value: string | undefined): { questionMs: number; idleMs: number } | undefined {
  const [question, idle] = (value ?? "").split(",").map((n) => Number(n));
  return question !== undefined && idle !== undefined && Number.isFinite(question) && Number.isFinite(idle) && value ? { questionMs: question, idleMs: idle } : undefined;
}
