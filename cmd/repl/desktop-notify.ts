/**
 * Telling a user who looked away (docs/interactive.md#being-told): when a turn ends or a question
 * waits and the terminal does not have focus, a desktop notification the terminal shows (OSC 9,
 * or OSC 777 where the terminal uses that), a bell, or the user's `notify` command. The loop's
 * Notification hooks (notifications.ts) fire from the same events; this is what the terminal gets.
 *
 * Focus comes from focus reporting (`CSI ? 1004 h`: the terminal sends `CSI I` / `CSI O`), asked
 * about first (DECRQM `CSI ? 1004 $ p`). A terminal that neither answers nor reports focus says
 * nothing about where the user looks: there, a turn that ran longer than `longTurnMs` counts as
 * "looked away".
 */
export type AlertEvent = "turn-end" | "question";

/** What the loop tells the notifier (notifications.ts calls it). */
export type Alerts = {
  turnStarted(): void;
  alert(event: AlertEvent, summary: string, session: string | undefined): void;
};

export const FOCUS_REPORTING_ON = "\x1b[?1004h";
export const FOCUS_REPORTING_OFF = "\x1b[?1004l";
/** DECRQM for mode 1004; the answer is `CSI ? 1004 ; Ps $ y` (keys.ts). */
export const FOCUS_PROBE = "\x1b[?1004$p";
/** Without focus reports, a turn at least this long is taken as one the user looked away from. */
export const NOTIFY_LONG_TURN_MS = 10_000;

export type NotifierOptions = {
  /** Config `notify`: "auto", "bell", "off", or a command. */
  setting: () => string;
  /** The terminal moves the cursor (screen mode rich): escape sequences are fine; otherwise a bell at most. */
  rich: boolean;
  env: Record<string, string | undefined>;
  write(text: string): void;
  /** Runs the `notify` command with `json` on its stdin, in the background. */
  run(command: string, json: string): void;
  longTurnMs?: number;
  now?: () => number;
};

export function createDesktopNotifier(opts: NotifierOptions) {
  const now = opts.now ?? Date.now;
  const longTurnMs = opts.longTurnMs ?? NOTIFY_LONG_TURN_MS;
  let reportsFocus = false; // the terminal answered the probe or sent a focus event
  let focused = true; // until the terminal says otherwise
  let turnStart: number | undefined;

  const away = () => (reportsFocus ? !focused : turnStart !== undefined && now() - turnStart >= longTurnMs);

  return {
    /** `CSI I` (true) or `CSI O` (false) arrived. */
    focus(has: boolean) {
      reportsFocus = true;
      focused = has;
    },
    /** The DECRQM answer for `mode`: 1-4 mean the terminal knows it (set, reset, always set, always reset). */
    modeReport(mode: number, value: number) {
      if (mode === 1004 && (value === 1 || value === 2 || value === 3)) reportsFocus = true;
    },
    turnStarted() {
      turnStart = now();
    },
    alert(event: AlertEvent, summary: string, session: string | undefined) {
      const setting = opts.setting().trim();
      if (setting === "off" || !away()) return;
      if (setting !== "auto" && setting !== "bell") {
        opts.run(setting, JSON.stringify({ event, session: session ?? null, summary }));
        return;
      }
      // A question already rings the bell (config `bell`), focused or not: the bell is not rung twice.
      if (setting === "bell" || !opts.rich) {
        if (event === "turn-end") opts.write("\x07");
        return;
      }
      opts.write(notification("shiro", summary, opts.env));
    },
  };
}

/**
 * The escape sequence that makes the terminal show a desktop notification: OSC 777 for terminals
 * that use it (VTE-based ones such as GNOME Terminal, urxvt, foot), OSC 9 for the rest (iTerm2,
 * WezTerm, Ghostty; a terminal that knows neither ignores it). Inside tmux, wrapped so
 * tmux passes it to the terminal outside (tmux needs `allow-passthrough on`).
 */
export function notification(title: string, body: string, env: Record<string, string | undefined>): string {
  const clean = (text: string) => text.replace(/[\x00-\x1f\x7f-\x9f]/g, " ").trim();
  const term = env.TERM ?? "";
  const uses777 = env.VTE_VERSION !== undefined || term.startsWith("rxvt") || term.startsWith("foot");
  const sequence = uses777 ? `\x1b]777;notify;${clean(title).replaceAll(";", ",")};${clean(body)}\x07` : `\x1b]9;${clean(`${title}: ${body}`)}\x07`;
  return env.TMUX ? `\x1bPtmux;${sequence.replaceAll("\x1b", "\x1b\x1b")}\x1b\\` : sequence;
}
