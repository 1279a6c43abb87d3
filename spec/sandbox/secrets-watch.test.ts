import { expect, test } from "bun:test";
import { mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSecretsWatch, findSecretsFiles } from "../../lib/sandbox/secrets-scan.ts";
import { tempDir } from "../support/cli.ts";

// The sandbox asks before every command which secrets files to mask; the watch answers from its
// last search while no folder changed. Whatever happens between two asks must show in the second.

function workspace() {
  const root = realpathSync(tempDir("shiro-secrets-"));
  mkdirSync(join(root, "src", "deep"), { recursive: true });
  writeFileSync(join(root, "src", "app.ts"), "");
  writeFileSync(join(root, ".env"), "A=1");
  return root;
}

test("the answer follows the workspace from one command to the next: a file added, renamed into a secret's name, or removed", async () => {
  const root = workspace();
  const watch = createSecretsWatch(root);
  expect(await watch.now()).toEqual([join(root, ".env")]);
  // Right after the search, in a folder it read: the same clock tick must not hide it.
  writeFileSync(join(root, "src", "deep", "server.key"), "k");
  expect(await watch.now()).toEqual([join(root, ".env"), join(root, "src", "deep", "server.key")]);
  renameSync(join(root, "src", "app.ts"), join(root, "src", ".env.local"));
  expect(await watch.now()).toEqual([join(root, ".env"), join(root, "src", ".env.local"), join(root, "src", "deep", "server.key")]);
  rmSync(join(root, "src", "deep"), { recursive: true });
  expect(await watch.now()).toEqual([join(root, ".env"), join(root, "src", ".env.local")]);
  rmSync(root, { recursive: true, force: true });
});

test("a new folder holding a secret is searched, and a prefetch gives the same answer as a fresh search", async () => {
  const root = workspace();
  const watch = createSecretsWatch(root);
  await watch.now();
  mkdirSync(join(root, "config", "prod"), { recursive: true });
  writeFileSync(join(root, "config", "prod", "id_ed25519"), "key");
  watch.prefetch();
  expect(await watch.now()).toEqual(findSecretsFiles(root));
  expect(await watch.now()).toContain(join(root, "config", "prod", "id_ed25519"));
  rmSync(root, { recursive: true, force: true });
});

test("a skipped folder ($SHIRO_HOME inside the workspace) is not searched", async () => {
  const root = workspace();
  mkdirSync(join(root, ".shiro"), { recursive: true });
  writeFileSync(join(root, ".shiro", "token.pem"), "x");
  expect(await createSecretsWatch(root, [join(root, ".shiro")]).now()).toEqual([join(root, ".env")]);
  expect(await createSecretsWatch(root).now()).toContain(join(root, ".shiro", "token.pem"));
  rmSync(root, { recursive: true, force: true });
});
