import { readFileSync, statSync } from "node:fs";
import { posix } from "node:path";

/**
 * What the config files git would read say that makes a plain `git push` force or delete: a
 * `remote.<name>.push` refspec starting with `+` or `:`, or `remote.<name>.mirror` on. Read from
 * the repository's own config (found from `cwd` upwards; a `.git` file's `gitdir:` followed) and
 * the user's (`~/.gitconfig`, `~/.config/git/config`). A config written earlier by another
 * program (`echo … >> .git/config`) is caught here, when the push is judged. Returns the setting
 * as `key = value`, or undefined. Never throws; an unreadable file says nothing.
 */
export function forcingPushConfig(cwd: string | undefined, home: string | undefined): string | undefined {
  const files = [home && posix.join(home, ".gitconfig"), home && posix.join(home, ".config", "git", "config")];
  const gitDir = cwd === undefined ? undefined : findGitDir(cwd);
  if (gitDir) files.push(posix.join(gitDir, "config"));
  for (const file of files) {
    if (!file) continue;
    const found = forcingIn(readText(file));
    if (found) return found;
  }
  return undefined;
}

function forcingIn(text: string | undefined): string | undefined {
  if (!text) return undefined;
  let remote: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/(^|\s)[#;].*$/, "").trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (section) {
      remote = section[1]!.toLowerCase() === "remote" ? (section[2] ?? "") : section[1]!.toLowerCase().startsWith("remote.") ? section[1]!.slice(7) : undefined;
      continue;
    }
    if (remote === undefined) continue;
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!entry) continue;
    const key = entry[1]!.toLowerCase();
    const value = (entry[2] ?? "true").replace(/^"(.*)"$/, "$1").trim();
    if (key === "push" && /^[+:]/.test(value)) return `remote.${remote}.push = ${value}`;
    if (key === "mirror" && /^(?:true|yes|on|1)$/i.test(value)) return `remote.${remote}.mirror = ${value}`;
  }
  return undefined;
}

/** The git directory for `cwd`: the nearest `.git` folder upwards, or where a `.git` file's `gitdir:` points. */
function findGitDir(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = posix.dirname(dir)) {
    const candidate = posix.join(dir, ".git");
    try {
      if (statSync(candidate).isDirectory()) return candidate;
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(candidate, "utf8"))?.[1]?.trim();
      return pointer ? posix.resolve(dir, pointer) : undefined;
    } catch {
      // not here
    }
    if (posix.dirname(dir) === dir) return undefined;
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").slice(0, 1_000_000);
  } catch {
    return undefined;
  }
}
