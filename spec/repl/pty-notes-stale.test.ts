import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { memoryStorePath, serializeMemory } from "../../lib/memory/index.ts";
import type { MemoryEntry } from "../../lib/memory/schema.ts";
import { tempDir } from "../support/cli.ts";
import { usePty } from "./pty.ts";

const { serve, start } = usePty();

test("/notes shows each note's age and hits, and the mark of a command that could not run and of a path that is gone", async () => {
  const home = tempDir();
  const cwd = tempDir("shiro-work-");
  mkdirSync(join(cwd, ".git"));
  const store = memoryStorePath(join(home, ".shiro-neko"), cwd);
  mkdirSync(dirname(store), { recursive: true });
  const entries: MemoryEntry[] = [
    { id: "a", kind: "command", text: "lint runs with `shiro-no-such-linter check`", createdAt: "2026-12-01T10:00:00.000Z", hits: 2, couldNotRun: { exitCode: 127, at: "2026-12-05T09:00:00.000Z" } },
    { id: "b", kind: "fact", text: "the parser lives in `src/parser.ts`", createdAt: new Date().toISOString(), hits: 0 },
  ];
  writeFileSync(store, serializeMemory(entries));
  const s = await serve();
  const pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitForPrompt(1);
  pty.line("/notes");
  await pty.waitFor("2 notes of 300 in project memory");
  const today = new Date().toISOString().slice(0, 10);
  expect(pty.screen()).toMatch(/ {3}2 {2}\S+ +command {3}lint runs with `shiro-no-such-linter check` {2}\[may be stale: not found on 2026-12-05\]/);
  expect(pty.screen()).toContain(`   0  today  fact      the parser lives in \`src/parser.ts\`  [may be stale: src/parser.ts not found on ${today}]`);
}, 20_000);
