import { readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";

const root = join(import.meta.dir, "..");

/**
 * How much later than normal JavaScriptCore compiles hot code (Bun's `compile.jitPolicy`; 1 is
 * normal). A run of shiro executes most of its code once, at start-up and in each step, and the
 * normal policy spends a core compiling it in the background: on a two-core machine that core is
 * the one the model server and the commands need. At 3 the bench's 20-step loop takes about 7%
 * less time; the floor it is compared with gains as much (scripts/bench.ts builds it with this
 * value). The interactive loop goes back to the normal policy once it waits for keys
 * (cmd/repl/main.ts).
 */
export const JIT_POLICY = 3;

/** A build for another system (scripts/release.ts): Bun's target and the name `shiro --version` gives it. */
export type CrossTarget = { bunTarget: Bun.Build.CompileTarget; name: string };

/**
 * Compiles shiro into one executable at `outfile`, with the options that ship: bytecode for fast
 * start-up, and no autoloading of the bunfig.toml or .env of the directory it runs in (the
 * binary runs inside other people's projects: a preload there would run their code, and a
 * SHIRO_BASE_URL in their .env would receive the user's key). Throws with the build logs on failure.
 *
 * The source maps are embedded in the executable, which is what gives `--debug` traces their
 * source file and line; the `.map` files Bun also writes beside it are read by nothing. Their
 * names change with every build (`chunk-<hash>.js.map`), so they are removed: the ones an
 * earlier build left before compiling, this build's after.
 */
export async function compileShiro(outfile: string, cross?: CrossTarget): Promise<void> {
  removeMaps(dirname(outfile));
  const result = await Bun.build({
    // Every docs/*.md rides along as a file inside the binary, `help/<name>.md`: the topics of
    // `shiro help` (cmd/help-topics.ts reads them through Bun.embeddedFiles, only when asked).
    entrypoints: [join(root, "cmd", "shiro.ts"), ...helpDocs()],
    loader: { ".md": "file" },
    naming: { asset: "help/[name].[ext]" },
    compile: { outfile, autoloadBunfig: false, autoloadDotenv: false, jitPolicy: JIT_POLICY, ...(cross ? { target: cross.bunTarget } : {}) },
    // The build's name for `shiro --version` (cmd/shiro.ts); without it the binary names the platform it runs on.
    ...(cross ? { define: { SHIRO_BUILD_TARGET: JSON.stringify(cross.name) } } : {}),
    minify: true,
    bytecode: true,
    // ESM with code splitting: each lazily imported part (the AI SDK, the loop, the sub-commands)
    // is its own chunk inside the binary, loaded only when imported, so --version loads almost nothing.
    format: "esm",
    splitting: true,
    sourcemap: "linked",
    target: "bun",
  });
  if (!result.success) throw new Error(result.logs.map(String).join("\n"));
  for (const output of result.outputs) if (output.path.endsWith(".map")) rmSync(output.path, { force: true });
}

/** The user docs that become `shiro help` topics: every docs/*.md, whatever is there at build time. */
function helpDocs(): string[] {
  const dir = join(root, "docs");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(dir, name));
}

/** The source-map files of earlier builds in `dir`: `<name>.map` and `chunk-*.js.map`. */
function removeMaps(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // no directory yet
  }
  for (const name of names) if (name.endsWith(".map")) rmSync(join(dir, name), { force: true });
}
