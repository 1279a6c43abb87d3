import type { FileChange } from "../../lib/sessions/undo/changes.ts";
import { sanitize } from "../../lib/render.ts";
import { unifiedDiff } from "../../lib/text/diff.ts";
import { paint } from "./approval-preview.ts";
import type { Theme } from "./theme.ts";

/**
 * `/diff`'s lines: per file a `--- a/path` / `+++ b/path` header (`/dev/null` for a side with no
 * file) with its `+added -removed`, then the coloured unified diff; a file whose content cannot
 * be shown (binary, too large to keep) says so instead.
 */
export function changeLines(files: readonly FileChange[], shown: (path: string) => string, theme: Theme): string[] {
  const lines: string[] = [];
  for (const file of files) {
    const name = sanitize(shown(file.path));
    const diff = unifiedDiff(file.before ?? "", file.after ?? "");
    const what = file.before === undefined && !file.note ? " (new file)" : file.after === undefined && !file.note ? " (deleted)" : "";
    lines.push(theme.bold(`${name}${what}`) + (file.note ? theme.dim(`  ${file.note}`) : `  ${theme.added(`+${diff.added}`)} ${theme.removed(`-${diff.removed}`)}`));
    if (file.note) continue;
    lines.push(theme.dim(`--- ${file.before === undefined ? "/dev/null" : `a/${name}`}`), theme.dim(`+++ ${file.after === undefined ? "/dev/null" : `b/${name}`}`));
    for (const line of diff.lines) lines.push(paint(line, theme));
  }
  return lines;
}
