/** A key press (or a typed or pasted run of text) as the loop understands it. */
export type Key =
  | { name: "text"; text: string }
  | { name: "paste"; text: string }
  | { name: KeyName };

export type KeyName =
  | "enter"
  | "newline"
  | "backspace"
  | "delete"
  | "tab"
  | "escape"
  | "up"
  | "down"
  | "left"
  | "right"
  | "home"
  | "end"
  | "word-left"
  | "word-right"
  | "delete-word-back"
  | "delete-word-forward"
  | "kill-to-end"
  | "kill-to-start"
  | "ctrl-b"
  | "ctrl-c"
  | "ctrl-d"
  | "ctrl-l"
  | "ctrl-r"
  | "ctrl-g"
  | "ctrl-o"
  | "page-up"
  | "page-down"
  | "shift-tab";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

const CONTROL: Record<string, KeyName> = {
  "\r": "enter",
  "\n": "newline", // ctrl-j
  "\x7f": "backspace",
  "\b": "backspace",
  "\t": "tab",
  "\x01": "home",
  "\x02": "ctrl-b", // left, except while a command runs in the foreground (key-dispatch.ts)
  "\x03": "ctrl-c",
  "\x04": "ctrl-d",
  "\x05": "end",
  "\x06": "right",
  "\x07": "ctrl-g",
  "\x0b": "kill-to-end",
  "\x0c": "ctrl-l",
  "\x0e": "down",
  "\x0f": "ctrl-o",
  "\x10": "up",
  "\x12": "ctrl-r",
  "\x15": "kill-to-start",
  "\x17": "delete-word-back",
};

/** CSI and SS3 sequences, without the leading ESC. Modifier variants (`1;5C`) are matched after. */
const SEQUENCES: Record<string, KeyName> = {
  "[A": "up",
  "[B": "down",
  "[C": "right",
  "[D": "left",
  "[H": "home",
  "[F": "end",
  OA: "up",
  OB: "down",
  OC: "right",
  OD: "left",
  OH: "home",
  OF: "end",
  "[1~": "home",
  "[7~": "home",
  "[4~": "end",
  "[8~": "end",
  "[3~": "delete",
  "[5~": "page-up",
  "[6~": "page-down",
  "[Z": "shift-tab",
  "[1;5C": "word-right",
  "[1;5D": "word-left",
  "[1;3C": "word-right",
  "[1;3D": "word-left",
  "[13;2u": "newline", // shift-enter (kitty keyboard protocol)
  "[27;2;13~": "newline", // shift-enter (xterm modifyOtherKeys)
};

const ALT: Record<string, KeyName> = { b: "word-left", f: "word-right", d: "delete-word-forward", "\x7f": "delete-word-back", "\r": "newline" };

/**
 * Turns raw terminal input into keys. Terminals send an escape sequence in one write, so a lone
 * ESC at the end of a chunk is the escape key, at once (no timeout). Bracketed paste (enabled by
 * the screen) arrives as one `paste` key, newlines and all, even across chunks. Unknown
 * sequences are dropped rather than typed into the prompt. What the terminal reports rather than
 * what was typed — focus in/out (`CSI I`, `CSI O`) and the answer to a mode query (`CSI ? 1004 ; 2
 * $ y`) — goes to `onReport`, never into the keys: it is not typing (lib/prompt/type-ahead.ts).
 */
export type TerminalReport = { type: "focus"; focused: boolean } | { type: "mode"; mode: number; value: number };

export function createKeyDecoder(onReport: (report: TerminalReport) => void = () => {}): { feed(chunk: string): Key[] } {
  let paste: string | undefined;
  return {
    feed(chunk) {
      const keys: Key[] = [];
      let text = "";
      const flush = () => {
        if (text) keys.push({ name: "text", text });
        text = "";
      };
      let i = 0;
      while (i < chunk.length) {
        if (paste !== undefined) {
          const end = chunk.indexOf(PASTE_END, i);
          if (end === -1) {
            paste += chunk.slice(i);
            break;
          }
          keys.push({ name: "paste", text: (paste + chunk.slice(i, end)).replace(/\r\n?/g, "\n") });
          paste = undefined;
          i = end + PASTE_END.length;
          continue;
        }
        const c = chunk[i]!;
        if (c === "\x1b") {
          flush();
          if (chunk.startsWith(PASTE_START, i)) {
            paste = "";
            i += PASTE_START.length;
            continue;
          }
          const next = chunk[i + 1];
          if (next === undefined || next === "\x1b") {
            keys.push({ name: "escape" });
            i += 1;
            continue;
          }
          if (next === "[" || next === "O") {
            const length = sequenceLength(chunk, i + 1);
            const body = chunk.slice(i + 1, i + 1 + length);
            const name = SEQUENCES[body];
            const mode = /^\[\?(\d+);(\d+)\$y$/.exec(body);
            if (name) keys.push({ name });
            else if (body === "[I" || body === "[O") onReport({ type: "focus", focused: body === "[I" });
            else if (mode) onReport({ type: "mode", mode: Number(mode[1]), value: Number(mode[2]) });
            i += 1 + length;
            continue;
          }
          const alt = ALT[next];
          if (alt) keys.push({ name: alt });
          i += 2;
          continue;
        }
        const control = CONTROL[c];
        if (control) {
          flush();
          keys.push({ name: control });
        } else if (c >= " ") {
          text += c;
        }
        i += 1;
      }
      flush();
      return keys;
    },
  };
}

/**
 * Length of the CSI/SS3 sequence starting at `at` ("[" or "O"), up to and including its final
 * byte: a CSI's parameter (0-9 ; : < = > ?) and intermediate bytes (space to /, such as the `$` of a
 * mode report) come before it.
 */
function sequenceLength(chunk: string, at: number): number {
  if (chunk[at] === "O") return Math.min(2, chunk.length - at);
  let j = at + 1;
  while (j < chunk.length && chunk[j]! >= " " && chunk[j]! <= "?") j++;
  return Math.min(j + 1, chunk.length) - at;
}
