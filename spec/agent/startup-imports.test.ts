import { expect, test } from "bun:test";
import { dirname, join, resolve } from "node:path";

/**
 * `shiro --version` and `--help` must not load the AI SDK. Walk the static imports reachable
 * from the entry point (dynamic import() is the lazy boundary) and check none is the SDK.
 */
function staticImports(file: string): string[] {
  const source = require("node:fs").readFileSync(file, "utf8") as string;
  const specs: string[] = [];
  for (const match of source.matchAll(/^\s*import\s+(?!type\b)(?:[^"';]+?\s+from\s+)?["']([^"']+)["']/gm)) specs.push(match[1]!);
  return specs;
}

/** The files and the packages (and Node modules) the entry point reaches by static imports. */
function startupPath(): { files: Set<string>; packages: Set<string> } {
  const entry = join(import.meta.dir, "..", "..", "cmd", "shiro.ts");
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith(".")) {
        if (spec.endsWith(".ts")) queue.push(resolve(dirname(file), spec));
      } else packages.add(spec);
    }
  }
  return { files: seen, packages };
}

test("the start-up path imports neither ai nor @ai-sdk", () => {
  const { files, packages } = startupPath();
  expect(files.size).toBeGreaterThan(2);
  expect([...packages].filter((p) => p === "ai" || p.startsWith("@ai-sdk/"))).toEqual([]);
});

test("the start-up path imports no package and no Node module: --version loads shiro's own few files", () => {
  // A shared chunk of the build carries its static imports with it, so one import of node:stream
  // (the pipe reader) reached from here made --version 4 ms slower.
  expect([...startupPath().packages]).toEqual([]);
});

test("highlight.js is never imported statically: it is required on the first code block (lib/text/highlight.ts)", () => {
  const glob = new Bun.Glob("{cmd,lib}/**/*.ts");
  const root = join(import.meta.dir, "..", "..");
  const importers = [...glob.scanSync(root)].filter((file) => staticImports(join(root, file)).some((spec) => spec.startsWith("highlight.js")));
  expect(importers).toEqual([]);
});
