import { realpathSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { isSensitivePath } from "../fs/sensitive-path.ts";
import { isInside } from "../fs/workspace.ts";

/** Total size of AGENTS.md / CLAUDE.md text placed in the system prompt. */
export const PROJECT_DOCS_MAX_CHARS = 20_000;

export type ProjectDoc = { path: string; text: string };

/**
 * Instruction files from the workspace root down to the cwd: in each directory AGENTS.md, or
 * CLAUDE.md when there is no AGENTS.md. Outer files come first so the nearest one has the last
 * word. The total is capped; a clipped file says so. A file is read only when what it names is a
 * regular file whose real path is inside the workspace and is not a secrets file: a repository
 * could otherwise ship `AGENTS.md -> .env` (or `-> ~/.aws/credentials`) and have the secret sent
 * with the first request, before any tool call. `CLAUDE.md -> AGENTS.md` is fine.
 */
export async function loadProjectDocs(root: string, cwd: string, maxChars = PROJECT_DOCS_MAX_CHARS): Promise<ProjectDoc[]> {
  const dirs: string[] = [];
  let dir = cwd;
  for (;;) {
    dirs.unshift(dir);
    if (dir === root || !dir.startsWith(root + sep)) break;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const docs: ProjectDoc[] = [];
  let budget = maxChars;
  for (const d of dirs) {
    for (const name of ["AGENTS.md", "CLAUDE.md"]) {
      const path = join(d, name);
      if (!isSafeDoc(path, root)) continue; // missing, or refused: as if it were not there
      const file = Bun.file(path);
      let text = await file.text().catch(() => "");
      if (budget <= 0) break;
      if (text.length > budget) text = text.slice(0, budget) + `\n[clipped: the file is longer than shiro's ${maxChars}-character budget for project instructions]`;
      budget -= text.length;
      docs.push({ path: relative(root, join(d, name)) || name, text });
      break;
    }
  }
  return docs;
}

/** A regular file inside the workspace (by real path) that is not a secrets file, by either name. */
function isSafeDoc(path: string, root: string): boolean {
  try {
    const real = realpathSync(path);
    return statSync(real).isFile() && isInside(realpathSync(root), real) && !isSensitivePath(real);
  } catch {
    return false;
  }
}
