// Drives the real shiro in a pseudo-terminal (Bun.spawn's `terminal` option): type keys, wait for
// what the screen shows. Waits are on output patterns with a deadline, never fixed sleeps.
import { afterEach } from "bun:test";
import { join } from "node:path";
import { shiroCommand, tempDir } from "../support/cli.ts";
import { HOST_INDEPENDENT_ENV } from "../support/host-tools.ts";
import { useFakeServer, type Serve } from "../support/use-fake-server.ts";
import { createVt } from "./vt.ts";
import { SUGGESTION_INSTRUCTIONS_START } from "../../lib/memory/index.ts";

export const KEYS = { enter: "\r", esc: "\x1b", up: "\x1b[A", down: "\x1b[B", tab: "\t", ctrlC: "\x03", ctrlD: "\x04" } as const;

/**
 * The reply to the loop's memory-suggestion call (docs/project-memory.md) when it has nothing to
 * suggest: a session that changed a file or took five steps makes that call on /exit or ctrl-d,
 * and before /compact. Answers only that call, wherever it stands in the script.
 */
export const NO_NOTES_SUGGESTED = { text: "NONE", when: { instructions: SUGGESTION_INSTRUCTIONS_START } } as const;

/** The status line under the input while the loop waits for a prompt. */
export const STATUS_LINE = /ctx ~[\d.]+[kM]?\/[\d.]+[kM]?/;
/** The line that ends a resumed session's replay (cmd/repl/controller.ts REPLAY_END). */
const REPLAY_END = "── resumed session";

export type PtyOptions = {
  baseURL: string;
  args?: string[];
  cwd?: string;
  home?: string;
  env?: Record<string, string | undefined>;
  cols?: number;
  rows?: number;
  /** The terminal rewraps its lines when resized, as tmux, VTE, kitty and iTerm2 do (vt.ts); without it, lines stay as drawn (xterm). */
  reflow?: boolean;
};

export type Pty = {
  /** What the terminal shows, scrollback included (see vt.ts). */
  screen(): string;
  /** The line the cursor is on: the input row while the loop waits for keys. */
  cursorLine(): string;
  /** The cursor's column on the terminal (0 first), in cells: a wide character takes two. */
  cursorCol(): number;
  /** Everything written so far, as written. */
  raw(): string;
  write(keys: string): void;
  /** Resizes the terminal (shiro gets SIGWINCH); the emulator wraps later text at the new width (and, with `reflow`, what is there). */
  resize(cols: number, rows?: number): void;
  /** Types text and presses Enter in one go, as a fast typist would. */
  line(text: string): void;
  /** Resolves once the screen shows `pattern` at least `count` times (default 1); rejects after `timeoutMs` with the screen. */
  waitFor(pattern: string | RegExp, opts?: { count?: number; timeoutMs?: number }): Promise<void>;
  /** Resolves once the input row reads `› text` exactly. */
  waitForInput(text: string): Promise<void>;
  /**
   * Resolves once the loop waits at its prompt (the status line under the input) with at least
   * `n - 1` prompts sent since it started or last replayed a session (1 = the first prompt).
   */
  waitForPrompt(n: number): Promise<void>;
  /** Resolves once `check` holds for the screen; rejects after `timeoutMs` with the screen. */
  waitUntil(what: string, check: () => boolean, timeoutMs?: number): Promise<void>;
  exited: Promise<number>;
  home: string;
  cwd: string;
  kill(): void;
  signal(name: NodeJS.Signals): void;
};

export async function startShiro(opts: PtyOptions): Promise<Pty> {
  const home = opts.home ?? tempDir("shiro-home-");
  const cwd = opts.cwd ?? tempDir("shiro-work-");
  let raw = "";
  const decoder = new TextDecoder();
  const cols = opts.cols ?? 160;
  const vt = createVt(cols, opts.rows ?? 30);
  const listeners = new Set<() => void>();
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: home,
    SHIRO_HOME: join(home, ".shiro-neko"),
    TERM: "xterm-256color",
    SHIRO_BASE_URL: opts.baseURL,
    // The fake server is on 127.0.0.1, which would get the client for compatible servers; the
    // default tests exercise the OpenAI client (item references, store). Vendor tests unset it.
    SHIRO_CLIENT: "openai",
    SHIRO_RETRY_BASE_MS: "20",
    // The plain fake has no context window and serves no model metadata (asking it is a protocol
    // error), so the default tests state one: a known window is never asked about. The window tests
    // unset it (CONTEXT_ENV in spec/e2e/context-window.test.ts).
    SHIRO_CONTEXT_WINDOW: "1000000",
    // A script answers a question the moment it appears, which a person never does: without this the
    // type-ahead guard (lib/prompt/type-ahead.ts) would take its keys for typing. Its own tests unset it.
    SHIRO_ANSWER_QUIET_MS: "0",
    // The sandbox off, whether or not this machine has bubblewrap (spec/support/host-tools.ts).
    ...HOST_INDEPENDENT_ENV,
    ...opts.env,
  };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const proc = Bun.spawn([...shiroCommand(), ...(opts.args ?? [])], {
    cwd,
    env: env as Record<string, string>,
    terminal: {
      cols,
      rows: opts.rows ?? 30,
      data(_terminal, data) {
        const chunk = decoder.decode(data, { stream: true });
        raw += chunk;
        vt.feed(chunk);
        for (const listener of [...listeners]) listener();
      },
    },
  });
  const waitUntil = (what: string, check: () => boolean, timeoutMs = 8_000) =>
    new Promise<void>((resolve, reject) => {
      const listener = () => {
        if (!check()) return;
        listeners.delete(listener);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        listeners.delete(listener);
        reject(new Error(`timed out waiting for ${what}; the screen:\n${vt.text().slice(-4000)}`));
      }, timeoutMs);
      listeners.add(listener);
      listener();
    });
  const occurrences = (pattern: string | RegExp): number => {
    const text = vt.text();
    if (typeof pattern === "string") return text.split(pattern).length - 1;
    return (text.match(new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : pattern.flags + "g")) ?? []).length;
  };
  const pty: Pty = {
    screen: () => vt.text(),
    cursorLine: () => vt.cursorLine(),
    cursorCol: () => vt.cursorCol(),
    raw: () => raw,
    write: (keys) => void proc.terminal!.write(keys),
    resize: (next, rows = opts.rows ?? 30) => {
      vt.resize(next, { reflow: opts.reflow });
      proc.terminal!.resize(next, rows);
    },
    line: (t) => void proc.terminal!.write(t + KEYS.enter),
    waitFor: (pattern, { count = 1, timeoutMs } = {}) => waitUntil(`${String(pattern)} ×${count}`, () => occurrences(pattern) >= count, timeoutMs),
    waitUntil,
    waitForInput: (text) => waitUntil(`the input to read "› ${text}"`, () => vt.cursorLine() === `› ${text}`.trimEnd()),
    waitForPrompt: (n) =>
      waitUntil(`prompt #${n}`, () => {
        const lines = vt.text().split("\n");
        if (!STATUS_LINE.test(lines.at(-1) ?? "") || !vt.cursorLine().startsWith("›")) return false;
        const since = lines.findLastIndex((l) => l.startsWith(REPLAY_END));
        const cursor = vt.cursorRow();
        const sent = lines.filter((l, i) => i > since && i !== cursor && l.startsWith("› ")).length;
        return sent >= n - 1;
      }),
    exited: proc.exited,
    home,
    cwd,
    kill: () => proc.kill("SIGKILL"),
    signal: (name) => proc.kill(name),
  };
  return pty;
}

/**
 * The set-up every PTY spec shares: `const { serve, start } = usePty();` at the top of the file,
 * then `const s = await serve(...replies)` and `const pty = await start({ baseURL: s.url })` in a
 * test. Every shiro a test started is killed after it, and only then is the strict fake server
 * checked (see useFakeServer), so a shiro still running cannot add requests after the check.
 */
export function usePty(): { serve: Serve; start: (opts: PtyOptions) => Promise<Pty> } {
  let started: Pty[] = [];
  // Registered before useFakeServer's hook: bun runs afterEach hooks in the order they were added.
  afterEach(async () => {
    const ptys = started;
    started = [];
    for (const pty of ptys) pty.kill();
    await Promise.all(ptys.map((pty) => pty.exited));
  });
  const serve = useFakeServer();
  const start = async (opts: PtyOptions) => {
    const pty = await startShiro(opts);
    started.push(pty);
    return pty;
  };
  return { serve, start };
}

/** The text of the last user message in a captured request, whichever wire it used. */
export function lastUserText(body: any): string {
  const items: any[] = Array.isArray(body.input) ? body.input : body.messages;
  const users = items.filter((item) => item.role === "user");
  const content = users.at(-1)?.content;
  if (typeof content === "string") return content;
  return (content ?? []).map((part: any) => part.text ?? "").join("");
}

/** Every user message in a captured request, oldest first. */
export function userTexts(body: any): string[] {
  const items: any[] = Array.isArray(body.input) ? body.input : body.messages;
  return items
    .filter((item) => item.role === "user")
    .map((item) => (typeof item.content === "string" ? item.content : item.content.map((part: any) => part.text ?? "").join("")));
}
