// A spec reads nothing outside the repository but ../shared, and reaches ../shared only through
// spec/support/shared-fixtures.ts, which skips visibly or fails loudly. A path that points out of
// the checkout works on one machine and silently skips (or breaks) on the next, so the string
// literals of every spec source are held to that here. Specs do not import scripts/ either.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from "node:path";
import { REPO_ROOT } from "./support/shared-fixtures.ts";

/** A line that names a path outside the repo on purpose, as data for shiro, carries this marker and a reason. */
const MARKER = "spec-boundary:";
const HELPER = join("spec", "support", "shared-fixtures.ts");
const SELF = join("spec", "repo-boundary.test.ts");
/** The helper, its own spec and this file name ../shared by design. */
const EXEMPT = [HELPER, join("spec", "support", "shared-fixtures.test.ts"), SELF];

type Literal = { file: string; line: number; text: string };

/**
 * The one-line string literals of a source file, with full-line comments and ` // …` tails dropped
 * (an apostrophe in a comment would otherwise open a fake literal). Good enough for path strings;
 * a path built across several literals or lines is not seen.
 */
function literalsOf(file: string): Literal[] {
  const found: Literal[] = [];
  readFileSync(join(REPO_ROOT, file), "utf8")
    .split("\n")
    .forEach((raw, i) => {
      if (/^\s*(\/\/|\/\*|\*)/.test(raw) || raw.includes(MARKER)) return;
      const code = raw.replace(/\s\/\/\s.*$/, "");
      for (const m of code.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g))
        found.push({ file, line: i + 1, text: m[1] ?? m[2] ?? m[3] ?? "" });
    });
  return found;
}

const inside = (root: string, path: string) => path === root || path.startsWith(root + sep);

/** Why `lit` points outside the repository, or undefined when it does not. */
function violation(lit: Literal): string | undefined {
  const { text } = lit;
  if (/(^|\/)shared(\/|$)/.test(text)) return "names ../shared: go through spec/support/shared-fixtures.ts";
  if (text.startsWith("../")) {
    const target = resolve(REPO_ROOT, dirname(lit.file), text);
    if (!inside(REPO_ROOT, target)) return `climbs out of the repository (to ${relative(REPO_ROOT, target)})`;
    // scripts/ builds on spec/support (the reliability checkers, the fake server), never the reverse.
    if (inside(join(REPO_ROOT, "scripts"), target)) return "reaches into scripts/: what a spec needs belongs in spec/support";
  }
  // An absolute path into the directory that holds this checkout (a sibling checkout, ../shared
  // spelled out, this checkout's own path) exists on this machine only.
  const parent = dirname(REPO_ROOT);
  if (isAbsolute(text) && parent !== dirname(parent)) {
    const path = normalize(text);
    const first = path.startsWith(parent + sep) ? path.slice(parent.length + 1).split(sep)[0] : undefined;
    if (first && existsSync(join(parent, first))) return `hard-codes a path beside the checkout (${join(parent, first)})`;
  }
  return undefined;
}

const specSources = () =>
  [...new Bun.Glob("spec/**/*.ts").scanSync({ cwd: REPO_ROOT })].filter((f) => !EXEMPT.includes(f)).sort();

test("no spec names a path outside the repository or in scripts/, and ../shared only through shared-fixtures.ts", () => {
  const files = specSources();
  expect(files.length).toBeGreaterThan(50);
  const problems = files
    .flatMap(literalsOf)
    .map((lit) => [lit, violation(lit)] as const)
    .filter(([, why]) => why !== undefined)
    .map(([lit, why]) => `${lit.file}:${lit.line} "${lit.text}" ${why}`);
  expect(problems).toEqual([]);
});

test("the check itself sees each way out", () => {
  const at = (text: string, file = "spec/prune/x.test.ts") => violation({ file, line: 1, text });
  expect(at(["..", "..", "..", "shared", "fixtures", "openai"].join("/"))).toContain("shared-fixtures.ts");
  expect(at(join(dirname(REPO_ROOT), "shared", "fixtures"))).toContain("shared-fixtures.ts");
  expect(at("../../../elsewhere/data.json")).toContain("climbs out of the repository");
  expect(at(join(REPO_ROOT, "package.json"))).toContain("hard-codes a path beside the checkout");
  expect(at("../../scripts/reliability/kill.ts")).toContain("reaches into scripts/");
  expect(at("../../lib/prune/prune.ts")).toBeUndefined();
  expect(at("/etc/passwd")).toBeUndefined();
  expect(at("a shared home")).toBeUndefined();
  expect(literalsOf(SELF).some((lit) => lit.text === "spec/prune/x.test.ts")).toBe(true);
});
