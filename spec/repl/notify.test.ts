import { describe, expect, test } from "bun:test";
import { createDesktopNotifier, notification } from "../../cmd/repl/desktop-notify.ts";
import { createKeyDecoder, type TerminalReport } from "../../cmd/repl/input/keys.ts";

describe("terminal reports are not keys", () => {
  test("focus in/out and the focus-mode answer go to the report callback, the typing around them stays", () => {
    const reports: TerminalReport[] = [];
    const decoder = createKeyDecoder((report) => reports.push(report));
    const keys = [...decoder.feed("ab\x1b[O"), ...decoder.feed("\x1b[Icd\x1b[?1004;2$y")];
    expect(keys).toEqual([{ name: "text", text: "ab" }, { name: "text", text: "cd" }]);
    expect(reports).toEqual([{ type: "focus", focused: false }, { type: "focus", focused: true }, { type: "mode", mode: 1004, value: 2 }]);
  });
});

describe("the desktop notification's escape sequence", () => {
  test("OSC 9 by default, OSC 777 for VTE and urxvt, control characters never pass through", () => {
    expect(notification("shiro", "done", { TERM: "xterm-256color" })).toBe("\x1b]9;shiro: done\x07");
    expect(notification("shiro", "a\x1b]b\x07c", {})).toBe("\x1b]9;shiro: a ]b c\x07");
    expect(notification("shiro", "done", { VTE_VERSION: "7600" })).toBe("\x1b]777;notify;shiro;done\x07");
    expect(notification("shiro", "done", { TERM: "rxvt-unicode" })).toBe("\x1b]777;notify;shiro;done\x07");
  });

  test("inside tmux it is wrapped for passthrough, its ESCs doubled", () => {
    expect(notification("shiro", "done", { TMUX: "/tmp/tmux-1/default,1,0" })).toBe("\x1bPtmux;\x1b\x1b]9;shiro: done\x07\x1b\\");
  });
});

describe("who gets told", () => {
  const setup = (setting: string, rich = true) => {
    let clock = 0;
    const out: string[] = [];
    const runs: { command: string; json: string }[] = [];
    const notifier = createDesktopNotifier({ setting: () => setting, rich, env: {}, write: (t) => out.push(t), run: (command, json) => runs.push({ command, json }), now: () => clock });
    return { notifier, out, runs, advance: (ms: number) => (clock += ms) };
  };

  test("a terminal that reports focus: only a lost focus is told", () => {
    const { notifier, out, advance } = setup("auto");
    notifier.modeReport(1004, 2);
    notifier.turnStarted();
    advance(60_000);
    notifier.alert("turn-end", "done", "s1");
    expect(out).toEqual([]); // focused, however long the turn
    notifier.focus(false);
    notifier.alert("turn-end", "done", "s1");
    expect(out).toEqual(["\x1b]9;shiro: done\x07"]);
  });

  test("a terminal that does not answer the probe: a turn of 10 s or more counts as looked away", () => {
    const { notifier, out, advance } = setup("auto");
    notifier.turnStarted();
    advance(9_000);
    notifier.alert("turn-end", "quick", undefined);
    expect(out).toEqual([]);
    notifier.turnStarted();
    advance(10_000);
    notifier.alert("turn-end", "slow", undefined);
    expect(out).toEqual(["\x1b]9;shiro: slow\x07"]);
  });

  test("bell rings at a turn's end only (a question rings through `bell`); off says nothing; a command gets JSON", () => {
    const bell = setup("bell");
    bell.notifier.focus(false);
    bell.notifier.alert("question", "q", "s");
    bell.notifier.alert("turn-end", "t", "s");
    expect(bell.out).toEqual(["\x07"]);
    const off = setup("off");
    off.notifier.focus(false);
    off.notifier.alert("turn-end", "t", "s");
    expect(off.out).toEqual([]);
    const command = setup("notify-send shiro");
    command.notifier.focus(false);
    command.notifier.alert("question", "shiro needs your permission: bash", "abc");
    expect(command.out).toEqual([]);
    expect(command.runs).toEqual([{ command: "notify-send shiro", json: JSON.stringify({ event: "question", session: "abc", summary: "shiro needs your permission: bash" }) }]);
  });

  test("a terminal that cannot take escape sequences (TERM=dumb) gets the bell from auto", () => {
    const { notifier, out } = setup("auto", false);
    notifier.focus(false);
    notifier.alert("turn-end", "t", "s");
    expect(out).toEqual(["\x07"]);
  });
});
