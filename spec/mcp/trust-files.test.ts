import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { filesServersRun, trustFingerprint } from "../../lib/mcp/trust-files.ts";
import { tempDir } from "../support/cli.ts";

test("the workspace files a server runs: a script, a module, a package's scripts; not what lies outside", () => {
  const root = tempDir();
  const outside = tempDir();
  for (const file of ["server.js", "run.sh", "tools/mcp/__main__.py", "pkg/package.json", "package.json", "sub/package.json"]) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), "x");
  }
  writeFileSync(join(outside, "elsewhere.js"), "x");
  symlinkSync(join(outside, "elsewhere.js"), join(root, "link.js"));
  const files = filesServersRun(root, {
    a: { command: "node", args: ["server.js", "--port", "3"] },
    b: { command: "./run.sh" },
    c: { command: "python3", args: ["-m", "tools.mcp"] },
    d: { command: "node", args: ["pkg"] },
    e: { command: "npm", args: ["run", "mcp"], cwd: "sub" },
    f: { command: "node", args: ["link.js", join(outside, "elsewhere.js"), "${HOME}/x.js"] },
    g: { url: "https://example.com/mcp" },
  });
  expect(files).toEqual(["pkg/package.json", "run.sh", "server.js", "sub/package.json", "tools/mcp/__main__.py"]);
});

test("the fingerprint is the file's own hash without named files, and changes with any named file", () => {
  const root = tempDir();
  writeFileSync(join(root, "server.js"), "one");
  expect(trustFingerprint(root, "f".repeat(64), [])).toBe("f".repeat(64));
  const before = trustFingerprint(root, "f".repeat(64), ["server.js"]);
  writeFileSync(join(root, "server.js"), "two");
  expect(trustFingerprint(root, "f".repeat(64), ["server.js"])).not.toBe(before);
});
