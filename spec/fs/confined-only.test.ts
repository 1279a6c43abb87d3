// The file tools and undo open workspace files only through lib/fs/confined-ops.ts: a path
// checked first and opened again by name later is the race issue 33 found. This keeps it so: no
// module of theirs imports a node:fs call that opens, creates, renames, removes or lists by path,
// nor uses Bun.file / Bun.write. (Metadata calls, stat and exists, stay allowed: they read no content.)
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

/** The modules that reach the workspace's files for a tool or for undo. */
const CONFINED_MODULES = [
  "lib/tools/read-file.ts",
  "lib/tools/write-file.ts",
  "lib/tools/edit-file.ts",
  "lib/tools/multi-edit.ts",
  "lib/tools/apply-patch.ts",
  "lib/tools/move-file.ts",
  "lib/tools/delete-file.ts",
  "lib/tools/list-dir.ts",
  "lib/tools/glob.ts",
  "lib/tools/grep.ts",
  "lib/tools/grep/builtin.ts",
  "lib/tools/edit/*.ts",
  "lib/tools/patch/*.ts",
  "lib/sessions/undo/*.ts",
  "lib/fs/walk.ts",
  "lib/fs/tree-listing.ts",
  "lib/fs/missing-path.ts",
];

/** The undo journal's own files under SHIRO_HOME (not the workspace's) are opened here, by path, on purpose. */
const OWN_STATE = new Set(["lib/sessions/undo/blobs.ts"]);

/** node:fs calls that open, create, rename, remove or list by path (sync, callback and promise forms share these names). */
const BY_PATH = [
  "open", "openSync", "opendir", "opendirSync", "readFile", "readFileSync", "writeFile", "writeFileSync", "appendFile", "appendFileSync",
  "rename", "renameSync", "unlink", "unlinkSync", "rm", "rmSync", "rmdir", "rmdirSync", "mkdir", "mkdirSync", "copyFile", "copyFileSync",
  "cp", "cpSync", "createReadStream", "createWriteStream", "truncate", "truncateSync", "chmod", "chmodSync", "symlink", "symlinkSync",
  "link", "linkSync", "readdir", "readdirSync", "readlink", "readlinkSync",
];

function files(): string[] {
  return CONFINED_MODULES.flatMap((pattern) => [...new Bun.Glob(pattern).scanSync(ROOT)]).filter((file) => !OWN_STATE.has(file)).sort();
}

test("the list covers the file tools and undo (a renamed module is not silently dropped)", () => {
  const found = files();
  for (const must of ["lib/tools/read-file.ts", "lib/tools/apply-patch.ts", "lib/sessions/undo/restore.ts", "lib/sessions/undo/journal.ts", "lib/tools/patch/plan.ts"]) {
    expect(found).toContain(must);
  }
});

test("no file tool or undo module opens a workspace file by path: everything goes through lib/fs/confined-ops.ts", () => {
  const offences: string[] = [];
  for (const file of files()) {
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const m of text.matchAll(/import\s+(?:type\s+)?(\*\s+as\s+\w+|\{[^}]*\}|\w+)\s+from\s+["'](?:node:)?fs(?:\/promises)?["']/g)) {
      const clause = m[1]!;
      if (clause.startsWith("*") || !clause.startsWith("{")) {
        offences.push(`${file}: imports the whole of node:fs (${clause})`);
        continue;
      }
      const names = clause.slice(1, -1).split(",").map((part) => part.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]!).filter(Boolean);
      for (const name of names) if (BY_PATH.includes(name)) offences.push(`${file}: imports ${name} from node:fs`);
    }
    if (/\bBun\.(file|write)\s*\(/.test(text)) offences.push(`${file}: uses Bun.file or Bun.write`);
    if (/\brequire\(\s*["'](node:)?fs/.test(text) || /import\(\s*["'](node:)?fs/.test(text)) offences.push(`${file}: loads node:fs dynamically`);
  }
  expect(offences).toEqual([]);
});
