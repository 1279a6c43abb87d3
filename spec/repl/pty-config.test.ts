import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { usePty } from "./pty.ts";

const { serve, start } = usePty();

test("shiro config on a 72-column terminal: no row is wider than the terminal, the source column aligned", async () => {
  const s = await serve();
  const home = tempDir("shiro-home-");
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ webFetch: { allowHosts: ["localhost:8123", "docs.internal.example:9000"] } }));
  const pty = await start({ baseURL: s.url, home, cols: 72, args: ["config"] });
  expect(await pty.exited).toBe(0);
  // As written, before the terminal could wrap anything: every line fits the 72 columns.
  const written = Bun.stripANSI(pty.raw()).split(/\r?\n/);
  expect(written.filter((line) => Bun.stringWidth(line) > 72)).toEqual([]);
  const screen = pty.screen().split("\n");
  const at = screen.findIndex((line) => line.startsWith("  webFetch "));
  const sourceAt = screen[at]!.indexOf("(from");
  expect(screen.find((line) => line.startsWith("  bell "))!.indexOf("(default)")).toBe(sourceAt);
  expect(screen[at + 1]!.trim()).toStartWith('"localhost:8123",');
});
