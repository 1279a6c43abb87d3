/**
 * JSON.parse with a reason a person can act on: where the text stops being JSON (line and
 * column, counted from 1 in characters) and how that line begins. The engine's own message
 * names no position, so the place is found by a small scan of the text, run only when the parse
 * has already failed. Pure.
 */

/** `reason` is a phrase to follow "is": `not valid JSON at line 2, column 3: expected "," or "}" (the line: …)`. */
export type JsonParsed = { ok: true; value: unknown } | { ok: false; reason: string };

/** Longest part of the offending line shown in a reason. */
const SHOWN_CHARS = 60;

export function parseJson(text: string): JsonParsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const engine = error instanceof Error ? error.message : String(error);
    if (text.trim() === "") return { ok: false, reason: "empty, not JSON" };
    const found = findJsonError(text);
    if (!found) return { ok: false, reason: `not valid JSON (${engine})` };
    const { line, column, lineText } = position(text, found.offset);
    return { ok: false, reason: `not valid JSON at line ${line}, column ${column}: ${found.what} (${shownLine(lineText, column)})` };
  }
}

/** The first place `text` is not JSON and what was expected there, or undefined when the scan finds none. */
export function findJsonError(text: string): { offset: number; what: string } | undefined {
  let i = 0;
  const fail = (what: string) => ({ offset: i, what: i >= text.length ? `the text ends where ${what} should be` : `expected ${what}` });
  const skipSpace = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  // What is open: an object or an array, so the scan needs no recursion however deep the text nests.
  const open: Array<"{" | "["> = [];
  // What may come next: a value, or (inside an object) a field name.
  let want: "value" | "key" | "keyOrEnd" | "valueOrEnd" = "value";
  for (;;) {
    skipSpace();
    if (want === "keyOrEnd" && text[i] === "}") {
      i++;
      open.pop();
    } else if (want === "valueOrEnd" && text[i] === "]") {
      i++;
      open.pop();
    } else if (want === "key" || want === "keyOrEnd") {
      if (text[i] !== '"') return fail(want === "key" ? "a field name in double quotes" : 'a field name in double quotes or "}"');
      const bad = scanString();
      if (bad) return bad;
      skipSpace();
      if (text[i] !== ":") return fail('":" after the field name');
      i++;
      want = "value";
      continue;
    } else {
      const c = text[i];
      if (c === "{") {
        i++;
        open.push("{");
        want = "keyOrEnd";
        continue;
      }
      if (c === "[") {
        i++;
        open.push("[");
        want = "valueOrEnd";
        continue;
      }
      if (c === '"') {
        const bad = scanString();
        if (bad) return bad;
      } else if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) {
        const bad = scanNumber();
        if (bad) return bad;
      } else {
        const word = ["true", "false", "null"].find((w) => text.startsWith(w, i));
        if (!word) return fail(c === "'" ? "a value (strings take double quotes)" : "a value");
        i += word.length;
      }
    }
    // A value is complete: what follows it depends on what holds it.
    skipSpace();
    const holder = open.at(-1);
    if (holder === undefined) return i < text.length ? fail("the end of the text after the value") : undefined;
    if (text[i] === ",") {
      i++;
      want = holder === "{" ? "key" : "value";
      continue;
    }
    if (text[i] === (holder === "{" ? "}" : "]")) {
      // Closed here; go round again as a completed value of the holder's holder.
      want = holder === "{" ? "keyOrEnd" : "valueOrEnd";
      continue;
    }
    return fail(holder === "{" ? '"," or "}"' : '"," or "]"');
  }

  function scanString(): { offset: number; what: string } | undefined {
    i++;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return undefined;
      }
      if (c < " ") return fail(c === "\n" ? 'the closing " of the string before the line ends' : "no control character inside a string (write it as an escape such as \\t)");
      if (c === "\\") {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return (i++, fail("four hex digits after \\u"));
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return (i++, fail('an escape such as \\n, \\" or \\\\ after the backslash'));
        continue;
      }
      i++;
    }
    return fail('the closing " of the string');
  }

  function scanNumber(): { offset: number; what: string } | undefined {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match || match[0] === "-") return (text[i] === "-" && i++, fail("a digit"));
    i += match[0].length;
    if (/^[.eE]/.test(text[i] ?? "")) return fail("a digit");
    return undefined;
  }
}

/** Line and column (from 1, in characters) of an offset, and that line's text. */
function position(text: string, offset: number): { line: number; column: number; lineText: string } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const start = before.lastIndexOf("\n") + 1;
  const end = text.indexOf("\n", offset);
  const lineText = text.slice(start, end === -1 ? undefined : end).replace(/\r$/, "");
  return { line, column: [...text.slice(start, offset)].length + 1, lineText };
}

/** The offending line as quoted: its beginning, or the part around the column when that is far along. */
function shownLine(lineText: string, column: number): string {
  const chars = [...lineText.replace(/[\u0000-\u001f]/g, " ").trimStart()];
  column -= [...lineText].length - chars.length;
  if (chars.join("").trim() === "") return "an empty line";
  const from = column > SHOWN_CHARS ? column - 1 - Math.floor(SHOWN_CHARS * 0.7) : 0;
  const part = chars.slice(from, from + SHOWN_CHARS).join("");
  return `the line: ${from > 0 ? "…" : ""}${part}${from + SHOWN_CHARS < chars.length ? "…" : ""}`;
}
