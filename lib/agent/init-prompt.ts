import { existsSync } from "node:fs";
import { join } from "node:path";
import template from "./prompts/init.md" with { type: "text" };
import { displayPath, type Where } from "../fs/workspace.ts";

/** The file `/init` writes, at the workspace root. */
export const AGENTS_FILE = "AGENTS.md";

/**
 * `/init`'s prompt: write AGENTS.md at the workspace root, or improve it when there is one. The
 * path is given as the tools resolve it (relative to the cwd). An existing CLAUDE.md is named as
 * a source. `focus`, what the user typed after `/init`, follows as their own words. Reads only
 * whether the files exist.
 */
export function initPrompt(where: Where, focus = ""): string {
  const file = join(where.root, AGENTS_FILE);
  const path = displayPath(where, file);
  const claude = existsSync(join(where.root, "CLAUDE.md")) ? ` There is a CLAUDE.md at the root too: use what is still true in it.` : "";
  const task = existsSync(file)
    ? `${path} already exists. Read it first, keep what is still true, correct what is wrong or out of date, add what is missing and cut what does not help; change it with edit_file (or write_file for a rewrite).${claude}`
    : `There is no ${path} yet: create it with write_file.${claude}`;
  const prompt = template.replaceAll("{{path}}", path).replace("{{task}}", task).trim();
  return focus.trim() === "" ? prompt : `${prompt}\n\nThe user adds: ${focus.trim()}`;
}

/**
 * What `/init` asks, in one line for the transcript, so the user knows why the model starts
 * reading files: write the file or improve the one there, and the focus they typed. Reads only
 * whether the file exists.
 */
export function initSummary(where: Where, focus = ""): string {
  const file = join(where.root, AGENTS_FILE);
  const path = displayPath(where, file);
  const ask = existsSync(file) ? `asking the model to read this project and improve ${path}` : `asking the model to read this project and write ${path}`;
  const words = focus.trim().replace(/\s+/g, " ");
  const shown = words.length > 80 ? words.slice(0, 79) + "…" : words;
  return `${ask}${shown ? ` (focus: ${shown})` : ""}`;
}
