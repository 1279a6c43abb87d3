import { realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { isStdio, type McpServers } from "../config/mcp-schema.ts";
import { isInside } from "../fs/workspace.ts";
import { filesFingerprint } from "../fs/trust-store.ts";

/** Programs whose `run <script>` (or bare `<script>`, for yarn) runs a script of the package.json there. */
const PACKAGE_RUNNERS = new Set(["npm", "pnpm", "yarn", "bun"]);
/** Python's `-m pkg.mod` runs one of these, under the server's folder. */
const moduleFiles = (name: string) => {
  const base = name.split(".").join("/");
  return [`${base}.py`, `${base}/__main__.py`, `${base}/__init__.py`];
};

/**
 * The workspace files a project's `.mcp.json` names for its servers to run, so trusting the file
 * means trusting them as they are: the command and each argument that is a file inside the
 * workspace (`./run.sh`, `node server.js`, `tsx src/mcp.ts`), the module of `python -m pkg.mod`
 * (`pkg/mod.py`, or its `__main__.py`), and the `package.json` of a folder named as an argument
 * (`node .`) or of the server's folder when a package manager runs a script (`npm run mcp`,
 * `bun run mcp`). Paths are relative to the workspace root, sorted, each once; a word with
 * `${…}` is not looked up. Files those load in turn (imports, requires) are not covered. Reads
 * the file system, never throws.
 */
export function filesServersRun(root: string, servers: McpServers): string[] {
  const realRoot = realOrSelf(root);
  const found = new Set<string>();
  const add = (abs: string) => {
    const real = realOrSelf(abs);
    if (!isInside(realRoot, real) || !isFile(real)) return false;
    found.add(relative(realRoot, real));
    return true;
  };
  for (const config of Object.values(servers)) {
    if (!isStdio(config)) continue;
    const cwd = config.cwd ? (isAbsolute(config.cwd) ? config.cwd : resolve(root, config.cwd)) : root;
    const words = [config.command, ...(config.args ?? [])];
    const program = config.command.split("/").pop() ?? "";
    words.forEach((word, i) => {
      if (word.includes("${")) return;
      const abs = resolve(cwd, word);
      if (add(abs)) return;
      if (isDir(abs)) add(join(abs, "package.json"));
      if ((word === "-m" || word === "--module") && /^python[\d.]*$/.test(program)) {
        const name = words[i + 1];
        if (name && !name.includes("${")) moduleFiles(name).some((file) => add(join(cwd, file)));
      }
    });
    if (PACKAGE_RUNNERS.has(program) || program === "npx" || program === "bunx") add(join(cwd, "package.json"));
  }
  return [...found].sort();
}

/**
 * What trust is given to: the hash of `.mcp.json`'s bytes alone when it names no workspace file
 * (so an answer given before stays good), else a hash over it and each named file's path and
 * bytes (lib/fs/trust-store.ts). Any change to one of them asks again.
 */
export function trustFingerprint(root: string, fileSha256: string, files: readonly string[]): string {
  return filesFingerprint(realOrSelf(root), ".mcp.json", fileSha256, files);
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
