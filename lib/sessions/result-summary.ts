import { plural } from "../text/lines.ts";
import { BASH_EXITED, BASH_INTERRUPTED, BASH_KILLED, BASH_TIMED_OUT } from "../tools/bash.ts";

/**
 * The live screen's summary of a result (the tool's `summary`: `42 lines`, `exit 1`, `+1 -1`)
 * worked out again from the text the model read, for a session saved before summaries were kept
 * with their results (lib/agent/result-notes.ts). The tools whose text says it (bash, read_file,
 * write_file, edit_file, multi_edit) get the live words; undefined for any other, or for a text
 * of a shape not known. Pure.
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
    default:
      return undefined;
  }
}
