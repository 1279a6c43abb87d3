import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import * as v from "valibot";
import { HooksConfig } from "../config/hooks-schema.ts";
import { issueWords } from "../config/field-path.ts";
import { filesFingerprint } from "../fs/trust-store.ts";
import { isInside, realpathOrSelf } from "../fs/workspace.ts";
import { statIfExists } from "../fs/missing-path.ts";
import { parseShell } from "../permissions/shell-parse.ts";

export const PROJECT_SETTINGS_FILE = ".shiro/settings.json";

/** A project's settings file: only `hooks` is read from it (other fields are the project's own business). */
const ProjectSettings = v.looseObject({ hooks: v.optional(HooksConfig) });

/** What a project's `.shiro/settings.json` holds, and the fingerprint trust is given to. */
export type ProjectHooks =
  | { status: "none" }
  | { status: "invalid"; path: string; reason: string }
  | { status: "found"; path: string; hooks: HooksConfig; commands: string[]; fingerprint: string };

/**
 * Reads `<root>/.shiro/settings.json`. A file that is not JSON, or whose hooks are not in Claude
 * Code's shape, is reported (`invalid`), never changed: it belongs to the project. The fingerprint
 * covers the file's bytes and every workspace file its commands name (`./scripts/check.sh`,
 * `python3 hooks/guard.py`, `$CLAUDE_PROJECT_DIR/x.sh`), so a change to one of them asks again.
 * Files those load in turn are not covered. Never throws.
 */
export function readProjectHooks(root: string): ProjectHooks {
  const path = join(root, PROJECT_SETTINGS_FILE);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return { status: "none" };
    return { status: "invalid", path, reason: error instanceof Error ? error.message : String(error) };
  }
  try {
    const parsed = v.safeParse(ProjectSettings, JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)));
    if (!parsed.success) return { status: "invalid", path, reason: issueWords(ProjectSettings, parsed.issues[0]).replace(/\s+/g, " ").slice(0, 300) };
    const hooks = parsed.output.hooks ?? {};
    const commands = Object.values(hooks).flatMap((groups) => groups.flatMap((g) => g.hooks.flatMap((h) => (h.type === "command" && h.command ? [h.command] : []))));
    const realRoot = realpathOrSelf(root);
    const sha256 = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
    return { status: "found", path, hooks, commands, fingerprint: filesFingerprint(realRoot, PROJECT_SETTINGS_FILE, sha256, filesCommandsRun(realRoot, commands)) };
  } catch (error) {
    return { status: "invalid", path, reason: (error instanceof Error ? error.message : String(error)).slice(0, 300) };
  }
}

/** The workspace files hook commands name (any word of any simple command that is a file inside), sorted, each once. */
export function filesCommandsRun(realRoot: string, commands: readonly string[]): string[] {
  const found = new Set<string>();
  for (const command of commands) {
    const expanded = command.replace(/\$\{?(SHIRO_PROJECT_DIR|CLAUDE_PROJECT_DIR)\}?/g, realRoot);
    const parsed = parseShell(expanded);
    for (const simple of parsed.commands) {
      for (const word of simple.words) {
        if (word.expands || word.text === "") continue;
        const real = realpathOrSelf(resolve(realRoot, word.text));
        if (isInside(realRoot, real) && real !== realRoot && statIfExists(real)?.isFile() === true) found.add(relative(realRoot, real));
      }
    }
  }
  return [...found].sort();
}
