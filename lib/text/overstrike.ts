/**
 * A line as a terminal leaves it when a carriage return moves the cursor back to its start: each
 * part after a `\r` is written over the one before (`"50%\r100%"` → `"100%"`, `"abc\rX"` →
 * `"Xbc"`). Progress bars (curl, tqdm, installers) redraw one line this way, even into a pipe.
 */
export function overstrike(line: string): string {
  if (!line.includes("\r")) return line;
  let shown = "";
  for (const part of line.split("\r")) shown = part + shown.slice(part.length);
  return shown;
}

/**
 * The unfinished last line of a stream, kept short: everything up to its last `\r` is settled
 * (overstruck), the rest stays after one `\r`, still to be written over what is there. A bar that
 * redraws itself a million times without a newline holds one copy, not a million.
 */
export function settleReturns(partial: string): string {
  const at = partial.lastIndexOf("\r");
  if (at < 0) return partial;
  return `${overstrike(partial.slice(0, at))}\r${partial.slice(at + 1)}`;
}

/**
 * Every line of a command's whole output as the terminal would leave it (overstrike per line): a
 * progress bar that redrew itself a few hundred times is one line for the model too, not a few
 * hundred copies of it, and a Windows line end (`\r\n`) is a plain one.
 */
export function overstrikeLines(text: string): string {
  return text.includes("\r") ? text.split("\n").map(overstrike).join("\n") : text;
}
