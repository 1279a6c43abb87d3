/**
 * A small reader for the shell command lines the model sends to `bash`. It is not a shell: it
 * finds the simple commands, their words after quote removal, redirections, heredoc bodies and the
 * text of command substitutions, which is what the guard and the bash permission rules need.
 * Expansions are never performed; a word that contains one is flagged instead.
 */

import { findAnsiQuoteEnd, findBacktick, findClose, readHeredoc, unescapeAnsi, type PendingHeredoc } from "./shell-scan.ts";

export type ShellWord = {
  /** The word after quote removal. `$HOME`, `${X}`, `$(…)` and backticks are kept as written. */
  readonly text: string;
  /** Contains a parameter expansion or command substitution outside single quotes. */
  readonly expands: boolean;
  /** Contains an unquoted `*`, `?` or `[`. */
  readonly glob: boolean;
  /** Contains an unquoted `{`, so bash may expand a brace list (`{rm,-rf,x}`) in it. */
  readonly brace?: boolean;
};

export type Separator = ";" | "&" | "&&" | "||" | "|" | "\n" | "(" | ")" | "end";

export type ShellRedirect = { readonly op: string; readonly target: ShellWord | undefined };

export type ShellCommand = {
  readonly words: readonly ShellWord[];
  readonly redirects: readonly ShellRedirect[];
  /** Bodies of `<<WORD` heredocs, in order. */
  readonly heredocs: readonly string[];
  /** What ended the command; `|` means its output feeds the next command. */
  readonly end: Separator;
  /** The command as written, trimmed, without heredoc bodies. */
  readonly source: string;
};

export type ParsedShell = {
  readonly commands: readonly ShellCommand[];
  /** Inner text of every `$(…)`, backtick, `<(…)` and `>(…)`, outermost first. Parse them in turn. */
  readonly substitutions: readonly string[];
};

type WordBuilder = { -readonly [K in keyof ShellWord]: ShellWord[K] };

/**
 * Parses a command line. Never throws: unterminated quotes or substitutions run to the end. The
 * guard, the rules, the read-only check and the git check each read the same line, so the last
 * lines parsed are kept: the result is shared and must not be changed (its types say so).
 */
export function parseShell(src: string): ParsedShell {
  const known = recent.get(src);
  if (known) return known;
  const parsed = parseLine(src);
  if (recent.size >= RECENT_LINES) recent.delete(recent.keys().next().value!);
  recent.set(src, parsed);
  return parsed;
}

const RECENT_LINES = 64;
const recent = new Map<string, ParsedShell>();

function parseLine(src: string): ParsedShell {
  const commands: ShellCommand[] = [];
  const substitutions: string[] = [];
  let words: ShellWord[] = [];
  let redirects: ShellRedirect[] = [];
  let heredocs: string[] = [];
  let pendingHeredocs: PendingHeredoc[] = [];
  let word: WordBuilder | undefined;
  let redirectOp: string | undefined;
  let commandStart = 0;
  let i = 0;

  const startWord = () => (word ??= { text: "", expands: false, glob: false });

  const finishWord = () => {
    if (!word) return;
    if (redirectOp) {
      redirects.push({ op: redirectOp, target: word });
      if (redirectOp === "<<" || redirectOp === "<<-") {
        pendingHeredocs.push({ delimiter: word.text, stripTabs: redirectOp === "<<-", into: heredocs });
      }
      redirectOp = undefined;
    } else {
      words.push(word);
    }
    word = undefined;
  };

  const finishCommand = (end: Separator, endIndex: number, nextStart: number) => {
    finishWord();
    if (redirectOp) redirects.push({ op: redirectOp, target: undefined });
    redirectOp = undefined;
    if (words.length > 0 || redirects.length > 0) {
      commands.push({ words, redirects, heredocs, end, source: src.slice(commandStart, endIndex).trim() });
    } else {
      // `(a) | b`, `(a); b`: the separator after a closing parenthesis belongs to the command before it.
      const last = commands.at(-1);
      if (last && (last.end === "(" || last.end === ")") && end !== "(" && end !== ")") commands[commands.length - 1] = { ...last, end };
    }
    words = [];
    redirects = [];
    heredocs = [];
    commandStart = nextStart;
  };

  /** Reads `$…` at i (src[i] === "$") into the current word; returns the index after it. */
  const readDollar = (at: number, w: WordBuilder): number => {
    const next = src[at + 1];
    if (next === "(") {
      const close = findClose(src, at + 2, "(", ")");
      substitutions.push(src.slice(at + 2, close));
      w.text += src.slice(at, close + 1);
      w.expands = true;
      return close + 1;
    }
    if (next === "{") {
      const close = findClose(src, at + 2, "{", "}");
      w.text += src.slice(at, close + 1);
      w.expands = true;
      return close + 1;
    }
    const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(src.slice(at + 1));
    if (name) {
      w.text += "$" + name[0];
      w.expands = true;
      return at + 1 + name[0].length;
    }
    w.text += "$";
    return at + 1;
  };

  const readBacktick = (at: number, w: WordBuilder): number => {
    const close = findBacktick(src, at + 1);
    substitutions.push(src.slice(at + 1, close).replace(/\\([`\\$])/g, "$1"));
    w.text += src.slice(at, close + 1);
    w.expands = true;
    return close + 1;
  };

  while (i < src.length) {
    const c = src[i]!;
    const rest2 = src.slice(i, i + 2);

    if (c === "\\" && src[i + 1] === "\n") {
      i += 2; // line continuation
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      finishWord();
      i++;
      continue;
    }
    if (c === "\n") {
      let next = i + 1;
      finishWord();
      for (const heredoc of pendingHeredocs) next = readHeredoc(src, next, heredoc);
      pendingHeredocs = [];
      finishCommand("\n", i, next);
      i = next;
      continue;
    }
    if (c === "#" && !word) {
      while (i < src.length && src[i] !== "\n") i++;
      continue;
    }
    if (c === ";") {
      const width = src[i + 1] === ";" ? 2 : 1;
      finishCommand(";", i, i + width);
      i += width;
      continue;
    }
    if (c === "&") {
      if (rest2 === "&&") {
        finishCommand("&&", i, i + 2);
        i += 2;
        continue;
      }
      if (src[i + 1] === ">") {
        finishWord();
        const op = src[i + 2] === ">" ? "&>>" : "&>";
        redirectOp = op;
        i += op.length;
        continue;
      }
      finishCommand("&", i, i + 1);
      i++;
      continue;
    }
    if (c === "|") {
      const width = rest2 === "||" || rest2 === "|&" ? 2 : 1;
      finishCommand(rest2 === "||" ? "||" : "|", i, i + width);
      i += width;
      continue;
    }
    if (c === "(" || c === ")") {
      finishCommand(c, i, i + 1);
      i++;
      continue;
    }
    if ((c === "<" || c === ">") && src[i + 1] === "(") {
      // Process substitution: a word whose value is a pipe to the inner command.
      const w = startWord();
      const close = findClose(src, i + 2, "(", ")");
      substitutions.push(src.slice(i + 2, close));
      w.text += src.slice(i, close + 1);
      w.expands = true;
      i = close + 1;
      continue;
    }
    if (c === "<" || c === ">") {
      if (word && /^[0-9]+$/.test(word.text) && !word.expands) word = undefined; // `2>`: the fd, not an argument
      finishWord();
      const op = /^(<<<|<<-|<<|<>|<&|>>|>&|>\||<|>)/.exec(src.slice(i))![0];
      redirectOp = op;
      i += op.length;
      continue;
    }

    // Anything else belongs to a word.
    const w = startWord();
    if (c === "'") {
      const close = src.indexOf("'", i + 1);
      const end = close === -1 ? src.length : close;
      w.text += src.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"' || (c === "$" && src[i + 1] === '"')) {
      i = readDoubleQuoted(c === "$" ? i + 2 : i + 1, w);
    } else if (c === "$" && src[i + 1] === "'") {
      const end = findAnsiQuoteEnd(src, i + 2);
      w.text += unescapeAnsi(src.slice(i + 2, end));
      i = end + 1;
    } else if (c === "$") {
      i = readDollar(i, w);
    } else if (c === "`") {
      i = readBacktick(i, w);
    } else if (c === "\\") {
      w.text += src[i + 1] ?? "";
      i += 2;
    } else {
      if (c === "*" || c === "?" || c === "[") w.glob = true;
      if (c === "{") w.brace = true;
      w.text += c;
      i++;
    }
  }
  finishCommand("end", src.length, src.length);
  return { commands, substitutions };

  function readDoubleQuoted(from: number, w: WordBuilder): number {
    let j = from;
    while (j < src.length && src[j] !== '"') {
      const d = src[j]!;
      if (d === "\\") {
        const escaped = src[j + 1] ?? "";
        if (escaped === "\n") {
          /* continuation */
        } else if ("$`\"\\".includes(escaped)) w.text += escaped;
        else w.text += "\\" + escaped;
        j += 2;
      } else if (d === "$") {
        j = readDollar(j, w);
      } else if (d === "`") {
        j = readBacktick(j, w);
      } else {
        w.text += d;
        j++;
      }
    }
    return j + 1;
  }
}

/** Splits commands into pipelines: runs of commands joined by `|`. */
export function pipelines(commands: readonly ShellCommand[]): ShellCommand[][] {
  const result: ShellCommand[][] = [];
  let current: ShellCommand[] = [];
  for (const command of commands) {
    current.push(command);
    if (command.end !== "|") {
      result.push(current);
      current = [];
    }
  }
  if (current.length > 0) result.push(current);
  return result;
}
