import { plural } from "../text/lines.ts";
import { BASH_EXITED, BASH_INTERRUPTED, BASH_KILLED, BASH_TIMED_OUT } from "../tools/bash.ts";

/**
 * The live screen's summary of a result (the tool's `summary`: `42 lines`, `exit 1`, `+1 -1`)
 * worked out again from the text the model read, for a session saved before summaries were kept
 * with their results (lib/agent/result-notes.ts). The tools whose text says it (bash, read_file,
 * write_file, edit_file, multi_edit, glob, grep) get the live words; undefined for any other, or
 * for a text of a shape not known. Pure.
 */
export function derivedSummary(tool: string, text: string): string | undefined {
  const first = text.split("\n")[0] ?? "";
  switch (tool) {
    case "bash": {
      const code = first.startsWith(BASH_EXITED) ? /^-?\d+/.exec(first.slice(BASH_EXITED.length))?.[0] : undefined;
      if (code !== undefined) return `exit ${code}`;
      if (first.startsWith(BASH_TIMED_OUT)) return `timed out after ${first.slice(BASH_TIMED_OUT.length).split(";")[0]}`;
      if (first.startsWith(BASH_KILLED)) return `killed by ${first.slice(BASH_KILLED.length).split(/[.\s]/)[0]}`;
      if (first.startsWith(BASH_INTERRUPTED)) return "interrupted";
      return undefined;
    }
    case "read_file": {
      if (/ is empty\.$/.test(first) && !text.includes("\n")) return "0 lines";
      const window = /\n\[Showing lines \d+-\d+ of (\d+) in /.exec(text);
      if (window) return plural(Number(window[1]), "line");
      const numbered = text.split("\n").filter((line) => /^ *\d+\t/.test(line)).length;
      return numbered > 0 ? plural(numbered, "line") : undefined;
    }
    case "write_file": {
      const made = /^(Created|Overwrote) .* \((\d+ lines?)\)\.$/.exec(first);
      return made ? `${made[1]!.toLowerCase()}, ${made[2]}` : undefined;
    }
    case "edit_file":
    case "multi_edit":
      return /[ (](\+\d+ -\d+) lines\)\.$/.exec(first)?.[1];
    case "glob":
      return globSummary(text);
    case "grep":
      return grepSummary(text);
    default:
      return undefined;
  }
}

/** glob's words (lib/tools/glob.ts): `no files`, or the files found, one path a line (all of them when the note says it showed only some). */
function globSummary(text: string): string | undefined {
  if (/^No files match /.test(text)) return "no files";
  const [list = "", note = ""] = text.split("\n\n[");
  const total = /^Showing the \d+ most recently modified of (\d+) matching files\./.exec(note)?.[1];
  if (total !== undefined) return plural(Number(total), "file");
  const paths = list.split("\n").filter((line) => line.trim() !== "");
  return paths.length > 0 && !note ? plural(paths.length, "file") : undefined;
}

/** grep's words (lib/tools/grep.ts): `no matches`, `binary file`, or `3 matches in 2 files` from its `path:line: text` lines (`over …` when it stopped at its limit). */
function grepSummary(text: string): string | undefined {
  if (/^No matches for /.test(text)) return "no matches";
  if (/ is a binary file; grep only searches text\.$/.test(text)) return "binary file";
  const [list = "", note = ""] = text.split("\n\n[");
  const lines = list.split("\n");
  const files = lines.map((line) => /^(.+?):\d+: /.exec(line)?.[1]);
  if (files.some((file) => file === undefined)) return undefined;
  const over = /^Stopped at \d+ matching lines; there are more\./.test(note) ? "over " : "";
  if (note && !over) return undefined;
  return `${over}${plural(lines.length, "match", "matches")} in ${plural(new Set(files).size, "file")}`;
}
