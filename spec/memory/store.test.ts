import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createHash } from "node:crypto";
import { findProjectRoot, projectHash } from "../../lib/fs/project-root.ts";
import { memoryStorePath } from "../../lib/memory/store-path.ts";
import { createMemoryStore, openMemoryStore } from "../../lib/memory/store.ts";
import { rememberNote } from "../../lib/memory/remember.ts";
import { recallNotes } from "../../lib/memory/recall.ts";
import { forgetNotes } from "../../lib/memory/forget.ts";
import { tempDir } from "../support/cli.ts";
import { freshStore, readStoreFile } from "./support/memory.ts";

describe("where the store lives", () => {
  test("$SHIRO_HOME/memory/<first 16 hex of sha256(absolute project path)>.json", () => {
    const root = "/home/you/project";
    const hash = createHash("sha256").update(root).digest("hex").slice(0, 16);
    expect(projectHash(root)).toBe(hash);
    expect(memoryStorePath("/h/.shiro-neko", root)).toBe(`/h/.shiro-neko/memory/${hash}.json`);
  });

  test("a subdirectory of a repository uses the repository's store (root from findProjectRoot)", () => {
    const repo = tempDir();
    mkdirSync(join(repo, ".git"));
    mkdirSync(join(repo, "src", "deep"), { recursive: true });
    const home = "/h/.shiro-neko";
    expect(memoryStorePath(home, findProjectRoot(join(repo, "src", "deep")))).toBe(memoryStorePath(home, repo));
    const outside = tempDir();
    expect(memoryStorePath(home, findProjectRoot(outside))).toBe(memoryStorePath(home, outside));
  });

  test("different projects get different stores", () => {
    expect(projectHash("/a/project")).not.toBe(projectHash("/b/project"));
  });
});

describe("opening", () => {
  test("opening and reading a project with no memory creates no file or directory", async () => {
    const home = join(tempDir(), ".shiro-neko");
    const projectRoot = tempDir();
    const { entries, notice } = await openMemoryStore({ home, projectRoot });
    expect(entries).toEqual([]);
    expect(notice).toBeUndefined();
    expect(existsSync(home)).toBe(false);
    expect(readdirSync(projectRoot)).toEqual([]);
  });

  test("updates that change nothing (no match, refused note) create nothing either", async () => {
    const { home, store } = freshStore();
    expect((await recallNotes(store, "anything")).ok).toBe(true);
    expect((await forgetNotes(store, "anything")).ok).toBe(true);
    expect((await rememberNote(store, { kind: "fact", text: "   " })).ok).toBe(false);
    expect(existsSync(home)).toBe(false);
  });

  test("the directory and file appear on the first write", async () => {
    const { store } = freshStore();
    await rememberNote(store, { kind: "command", text: "Tests run with `bun test`, not `npm test`." });
    expect(readdirSync(dirname(store.path))).toEqual([store.path.split("/").pop()!]);
  });
});

test("remember writes a readable file with every field", async () => {
  const { store } = freshStore({ newId: () => "note-1", now: () => new Date("2025-01-01T00:00:01.000Z") });
  const result = await rememberNote(store, { kind: "gotcha", text: "  The migration must run\n before the seed.  " });
  expect(result.ok).toBe(true);
  const raw = readFileSync(store.path, "utf8");
  expect(raw).toContain('\n  "entries": [\n'); // pretty-printed for people
  expect(raw.endsWith("\n")).toBe(true);
  const file = readStoreFile(store.path);
  expect(file.version).toBe(1);
  expect(file.entries).toEqual([{ id: "note-1", kind: "gotcha", text: "The migration must run before the seed.", createdAt: "2025-01-01T00:00:01.000Z", hits: 0 }]);
  const reopened = await openMemoryStore({ home: dirname(dirname(store.path)), projectRoot: store.projectRoot });
  expect(reopened.entries).toEqual(file.entries);
});

test("the default id is a UUIDv7 and createdAt is an ISO time", async () => {
  const home = join(tempDir(), ".shiro-neko");
  const store = createMemoryStore({ home, projectRoot: tempDir() });
  await rememberNote(store, { kind: "fact", text: "The API is versioned under /v2." });
  const [e] = readStoreFile(store.path).entries;
  expect(e!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(new Date(e!.createdAt).toISOString()).toBe(e!.createdAt);
});

describe("a corrupt or unreadable store", () => {
  const bad = ['{"version": 1, "entries": [', JSON.stringify({ version: 1, entries: [{ id: "x", kind: "rumour", text: "t", createdAt: "", hits: 0 }] }), "not json at all"];

  for (const content of bad) {
    test(`is moved aside with its content intact and a notice: ${JSON.stringify(content).slice(0, 40)}`, async () => {
      const { home, projectRoot, store } = freshStore();
      mkdirSync(dirname(store.path), { recursive: true });
      writeFileSync(store.path, content);
      const opened = await openMemoryStore({ home, projectRoot });
      expect(opened.entries).toEqual([]);
      expect(opened.notice).toContain("could not be read");
      expect(opened.notice).toContain("nothing was deleted");
      const aside = readdirSync(dirname(store.path)).filter((n) => n.includes(".corrupt-"));
      expect(aside).toHaveLength(1);
      expect(opened.notice).toContain(aside[0]!);
      expect(readFileSync(join(dirname(store.path), aside[0]!), "utf8")).toBe(content);
      expect(existsSync(store.path)).toBe(false);
      // Told once: the next open finds no file and says nothing.
      expect((await openMemoryStore({ home, projectRoot })).notice).toBeUndefined();
    });
  }

  test("found during a write: set aside, reported through onNotice, and the new note starts a fresh store", async () => {
    const notices: string[] = [];
    const { store } = freshStore({ onNotice: (m) => notices.push(m) });
    mkdirSync(dirname(store.path), { recursive: true });
    writeFileSync(store.path, "{{{");
    expect((await rememberNote(store, { kind: "fact", text: "a fresh note" })).ok).toBe(true);
    expect(notices).toHaveLength(1);
    expect(readStoreFile(store.path).entries.map((e) => e.text)).toEqual(["a fresh note"]);
    const aside = readdirSync(dirname(store.path)).filter((n) => n.includes(".corrupt-"));
    expect(readFileSync(join(dirname(store.path), aside[0]!), "utf8")).toBe("{{{");
  });
});
