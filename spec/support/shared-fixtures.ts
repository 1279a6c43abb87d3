// The one way a spec reaches outside the repository: `../shared`, the recorded provider streams and
// error bodies kept beside the checkout (see its fixtures/openai/SOURCES.md). spec/repo-boundary.test.ts
// holds every other spec to it.
import { describe, test } from "bun:test";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

/** The checkout these specs belong to. */
export const REPO_ROOT = resolve(import.meta.dir, "..", "..");

/** `../shared` beside the checkout, resolved from the repository root (never an absolute path). */
export const SHARED_ROOT = resolve(REPO_ROOT, "..", "shared");

/** The absolute path of `rel` inside `../shared`, whether or not it exists. */
export function sharedPath(rel: string): string {
  return join(SHARED_ROOT, rel);
}

/**
 * `describe` for tests that read `../shared/<rel>`. The outcome never depends on the tests quietly
 * vanishing:
 * - `../shared` absent (a clean clone): one skipped test that names what is missing, and a line on
 *   stderr, so the skip shows in the run and in the runner's `N skipped`;
 * - `../shared` present but `<rel>` missing: one failing test, since the fixtures moved or were
 *   renamed and these tests would otherwise stop running unnoticed;
 * - both present: `body(dir)` declares the tests, `dir` being the absolute path of `<rel>`.
 * `opts.root` stands in for `../shared` in the helper's own spec.
 */
export function describeWithShared(rel: string, name: string, body: (dir: string) => void, opts: { root?: string } = {}): void {
  const root = opts.root ?? SHARED_ROOT;
  const dir = join(root, rel);
  if (!existsSync(root)) {
    console.warn(`skipping "${name}": it needs ../shared/${rel}, and ../shared (${root}) is absent`);
    describe(name, () => test.skip(`needs ../shared/${rel} (absent: no ../shared beside the checkout)`, () => {}));
  } else if (!existsSync(dir)) {
    describe(name, () =>
      test(`needs ../shared/${rel}`, () => {
        throw new Error(`../shared is present (${root}) but ${rel} is not in it: the fixtures moved; update the spec`);
      }),
    );
  } else describe(name, () => body(dir));
}
