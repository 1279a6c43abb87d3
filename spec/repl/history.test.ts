import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { appendEntry, HISTORY_MAX_ENTRIES, historyPath, openHistory, startWalk, walkDown, walkUp } from "../../lib/prompt/history.ts";
import { tempDir } from "../support/cli.ts";

describe("appendEntry", () => {
  test("adds at the end, oldest first", () => {
    expect(appendEntry(["a"], "b")).toEqual(["a", "b"]);
  });

  test("a prompt equal to the previous entry is not added twice, an older duplicate is", () => {
    expect(appendEntry(["a", "b"], "b")).toEqual(["a", "b"]);
    expect(appendEntry(["a", "b"], "a")).toEqual(["a", "b", "a"]);
  });

  test("blank prompts are not kept", () => {
    expect(appendEntry(["a"], "   \n ")).toEqual(["a"]);
  });

  test("only the newest 200 survive", () => {
    let entries: readonly string[] = [];
    for (let i = 0; i < 250; i++) entries = appendEntry(entries, `p${i}`);
    expect(entries).toHaveLength(HISTORY_MAX_ENTRIES);
    expect(entries[0]).toBe("p50");
    expect(entries.at(-1)).toBe("p249");
  });
});

describe("the history file", () => {
  test("lives at $SHIRO_HOME/history/<sha256 prefix of the project path>.json", () => {
    const hash = createHash("sha256").update("/src/app").digest("hex");
    const path = historyPath("/home/u/.shiro-neko", "/src/app");
    expect(dirname(path)).toBe("/home/u/.shiro-neko/history");
    expect(hash.startsWith(path.split("/").at(-1)!.replace(".json", ""))).toBe(true);
    expect(historyPath("/h", "/src/other")).not.toBe(historyPath("/h", "/src/app"));
  });

  test("is written on every add and read back by the next session", () => {
    const home = tempDir();
    const first = openHistory(home, "/proj").store;
    first.add("one");
    first.add("two");
    first.add("two");
    expect(openHistory(home, "/proj").store.entries()).toEqual(["one", "two"]);
    expect(openHistory(home, "/elsewhere").store.entries()).toEqual([]);
    const onDisk = JSON.parse(readFileSync(historyPath(home, "/proj"), "utf8"));
    expect(onDisk).toEqual({ project: "/proj", entries: ["one", "two"] });
  });

  test("two sessions in the same project both keep their prompts", () => {
    const home = tempDir();
    const a = openHistory(home, "/proj").store;
    const b = openHistory(home, "/proj").store;
    a.add("from a");
    b.add("from b");
    expect(openHistory(home, "/proj").store.entries()).toEqual(["from a", "from b"]);
  });

  test("a corrupt file is set aside with a notice, not fatal, and a fresh history starts", () => {
    const home = tempDir();
    const path = historyPath(home, "/proj");
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "{ not json");
    const opened = openHistory(home, "/proj");
    expect(opened.notice).toContain("could not be read");
    expect(opened.notice).toContain(".corrupt-");
    expect(opened.store.entries()).toEqual([]);
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dirname(path)).some((name) => name.includes(".corrupt-"))).toBe(true);
    expect(opened.store.add("fresh")).toBeUndefined();
    expect(openHistory(home, "/proj").store.entries()).toEqual(["fresh"]);
  });

  test("a file with the wrong shape is set aside too", () => {
    const home = tempDir();
    const path = historyPath(home, "/proj");
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify({ entries: "nope" }));
    expect(openHistory(home, "/proj").notice).toContain("moved it to");
  });

  test("a file that cannot be written gives a notice instead of throwing", () => {
    const home = tempDir();
    writeFileSync(join(home, "history"), "a file where the directory should be");
    const { store } = openHistory(home, "/proj");
    expect(store.add("x")).toContain("could not save prompt history");
  });
});

describe("walking the history", () => {
  const entries = ["first", "second", "third"];

  test("up goes to older entries and stops at the oldest", () => {
    let walk = startWalk(entries);
    const seen: string[] = [];
    for (;;) {
      const step = walkUp(walk, "draft");
      if (!step) break;
      walk = step.walk;
      seen.push(step.text);
    }
    expect(seen).toEqual(["third", "second", "first"]);
  });

  test("down past the newest restores what was being typed", () => {
    let walk = startWalk(entries);
    walk = walkUp(walk, "half a thought")!.walk;
    walk = walkUp(walk, "third")!.walk;
    const one = walkDown(walk)!;
    expect(one.text).toBe("third");
    const two = walkDown(one.walk)!;
    expect(two.text).toBe("half a thought");
    expect(walkDown(two.walk)).toBeUndefined();
  });

  test("an empty history has nowhere to go", () => {
    expect(walkUp(startWalk([]), "x")).toBeUndefined();
    expect(walkDown(startWalk([]))).toBeUndefined();
  });
});
