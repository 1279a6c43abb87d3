/**
 * `bun run build`: one self-contained executable at dist/shiro (`--outfile <path>`: there
 * instead). Prompts are text imports, so they are inside the binary; nothing is read from the
 * source tree at run time.
 */
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { compileShiro } from "./compile.ts";

const root = join(import.meta.dir, "..");
const at = process.argv.indexOf("--outfile");
const outfile = at >= 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]!) : join(root, "dist", "shiro");
mkdirSync(dirname(outfile), { recursive: true });

const started = performance.now();
try {
  await compileShiro(outfile);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const size = Bun.file(outfile).size;
console.log(`built ${outfile} (${(size / 1024 / 1024).toFixed(1)} MB) in ${Math.round(performance.now() - started)} ms`);
