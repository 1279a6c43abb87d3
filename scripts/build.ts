/**
 * `bun run build`: one self-contained executable at dist/shiro. Prompts are text imports, so
 * they are inside the binary; nothing is read from the source tree at run time.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const outfile = join(root, "dist", "shiro");
mkdirSync(join(root, "dist"), { recursive: true });

const started = performance.now();
const result = await Bun.build({
  entrypoints: [join(root, "cmd", "shiro.ts")],
  compile: { outfile },
  minify: true,
  bytecode: true,
  sourcemap: "linked",
  target: "bun",
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
const size = Bun.file(outfile).size;
console.log(`built ${outfile} (${(size / 1024 / 1024).toFixed(1)} MB) in ${Math.round(performance.now() - started)} ms`);
