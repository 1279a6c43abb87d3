import { isAbsolute, join, relative, sep } from "node:path";
import type { MemoryEntry } from "./schema.ts";

/** File name endings a plain word must have to be read as a path (`users.org_id` or `obj.method` are not files). */
const FILE_ENDINGS = new Set(
  "ts tsx js jsx mjs cjs json jsonc md mdx txt py go rs rb java kt c h cc cpp hpp cs swift php sh bash zsh toml yaml yml lock sql css scss html vue svelte env ini cfg conf xml gradle proto graphql".split(" "),
);

/**
 * The workspace paths a note names: a word that ends in a file name ending (`package.json`,
 * src/app.ts), or a word in backticks that holds a `/` (`src/lib/`); never a URL, a glob, a
 * variable, an option or a home path. As written, `./` dropped. (`and/or` or `users.org_id` are not paths.)
 */
export function pathsNamed(text: string): string[] {
  const quoted = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
  const plain = text
    .replace(/`[^`]*`/g, " ")
    .split(/\s+/)
    .map((word) => word.replace(/^[("'[]+/, "").replace(/[)"'\],.:;!?]+$/, ""));
  const paths = new Set<string>();
  const looksLikePath = (word: string, backticked: boolean) => {
    if (!word || /[*?$~<>{}|=]|:\/\/|^-|^@/.test(word)) return false;
    const name = word.replace(/\/+$/, "").split("/").at(-1) ?? "";
    const ending = name.includes(".") ? name.split(".").at(-1)!.toLowerCase() : "";
    return FILE_ENDINGS.has(ending) || (backticked && word.includes("/"));
  };
  for (const word of quoted) if (looksLikePath(word, true)) paths.add(word.replace(/^\.\//, ""));
  for (const word of plain) if (looksLikePath(word, false)) paths.add(word.replace(/^\.\//, ""));
  return [...paths];
}

/**
 * Notes that may be stale, each with its mark for the boot block and `/notes`: a note naming a
 * workspace path that is not there now (`[may be stale: src/old.ts not found on 2026-12-07]`,
 * today's date), and a `command` note whose command could not run the last time the agent ran it
 * (`[may be stale: not found on 2026-12-05]`, or `not executable`, the date of that run). `exists`
 * answers for a path inside `root` (absolute); paths outside the workspace are not judged.
 */
export function staleMarks(entries: readonly MemoryEntry[], root: string, exists: (path: string) => boolean, today: Date): Map<MemoryEntry, string> {
  const day = today.toISOString().slice(0, 10);
  const marks = new Map<MemoryEntry, string>();
  for (const entry of entries) {
    const missing = pathsNamed(entry.text).filter((path) => {
      const full = isAbsolute(path) ? path : join(root, path);
      const inside = relative(root, full);
      if (inside === "" || inside.startsWith(".." + sep) || inside === ".." || isAbsolute(inside)) return false;
      return !exists(full);
    });
    const said = [
      ...(missing.length > 0 ? [`[may be stale: ${missing.join(", ")} not found on ${day}]`] : []),
      ...(entry.kind === "command" && entry.couldNotRun ? [commandMark(entry.couldNotRun)] : []),
    ];
    if (said.length > 0) marks.set(entry, said.join("  "));
  }
  return marks;
}

/** The mark of a command that could not run: `[may be stale: not found on 2026-12-05]`. */
function commandMark(run: NonNullable<MemoryEntry["couldNotRun"]>): string {
  return `[may be stale: ${run.exitCode === 127 ? "not found" : "not executable"} on ${run.at.slice(0, 10)}]`;
}
