/** Lines of a text file: split on "\n", a trailing "\r" kept, no phantom empty line after a final newline. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** How many lines an editor would show for `text` (a final newline does not start a new line). */
export function countLines(text: string): number {
  return splitLines(text).length;
}

/** `cat -n` style: the 1-based number right-aligned in six columns, a tab, the line without its "\r". */
export function numberedLine(lineNumber: number, text: string): string {
  return `${String(lineNumber).padStart(6)}\t${text.replace(/\r$/, "")}`;
}

/** Cuts a line past `max` characters and says how much was left out. */
export function clipLine(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [${text.length - max} more characters on this line]`;
}

/** "1 line", "3 lines"; pass `many` for irregular plurals ("matches"). */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}
