import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..", "..");

test("the MCP SDK is never imported statically: only lib/mcp/connect.ts (at the first connection) and lib/mcp/login.ts (shiro mcp login) load it", () => {
  const files = [...new Bun.Glob("{cmd,lib}/**/*.ts").scanSync(root)];
  const statically = files.filter((file) => /^\s*import\s+(?!type\b)[^;]*?["']@modelcontextprotocol\//m.test(readFileSync(join(root, file), "utf8")));
  expect(statically).toEqual([]);
  const dynamically = files.filter((file) => /import\(\s*["']@modelcontextprotocol\//.test(readFileSync(join(root, file), "utf8")));
  expect(dynamically.sort()).toEqual(["lib/mcp/connect.ts", "lib/mcp/login.ts"]);
  // …and connect.ts itself is reached only through a dynamic import.
  const importers = files.filter((file) => /from\s+["'][^"']*\/connect\.ts["']/.test(readFileSync(join(root, file), "utf8").replace(/import type[^;]*;/g, "")));
  expect(importers).toEqual([]);
});
