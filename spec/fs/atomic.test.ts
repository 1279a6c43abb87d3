import { expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { writeStateFileInBackground, writeStateFileSync } from "../../lib/fs/atomic-write.ts";
import { readJsonFile } from "../../lib/fs/read-json.ts";
import { tempDir } from "../support/cli.ts";

const Doc = v.object({ version: v.literal(1), items: v.array(v.string()) });

test("writeStateFileSync creates directories, replaces content and leaves no temp files", () => {
  const dir = tempDir();
  const path = join(dir, "a", "b", "doc.json");
  writeStateFileSync(path, "one");
  writeStateFileSync(path, "two");
  expect(readFileSync(path, "utf8")).toBe("two");
  expect(readdirSync(join(dir, "a", "b"))).toEqual(["doc.json"]);
});

test("readJsonFile: missing, ok, and corrupt files are told apart", () => {
  const dir = tempDir();
  const path = join(dir, "doc.json");
  expect(readJsonFile(path, Doc)).toEqual({ status: "missing" });
  writeFileSync(path, JSON.stringify({ version: 1, items: ["x"] }));
  expect(readJsonFile(path, Doc)).toEqual({ status: "ok", value: { version: 1, items: ["x"] } });
});

test("a corrupt file is moved aside with its content intact, never wiped", () => {
  const dir = tempDir();
  const path = join(dir, "doc.json");
  for (const bad of ['{"version": 1, "items": [', JSON.stringify({ version: 2, items: [] }), "\xff\xfe"]) {
    writeFileSync(path, bad, "latin1");
    const result = readJsonFile(path, Doc);
    expect(result.status).toBe("corrupt");
    if (result.status !== "corrupt") throw new Error("unreachable");
    expect(result.movedTo).toBeDefined();
    expect(readFileSync(result.movedTo!, "latin1")).toBe(bad);
  }
  expect(readdirSync(dir).filter((n) => n.includes(".corrupt-"))).toHaveLength(3);
});

test("a background write replaces the file when it is still wanted, and leaves no temp file", async () => {
  const dir = tempDir();
  const path = join(dir, "state.json");
  writeStateFileSync(path, "old");
  expect(await writeStateFileInBackground(path, "new", { commit: () => true })).toBe(true);
  expect(readFileSync(path, "utf8")).toBe("new");
  expect(readdirSync(dir)).toEqual(["state.json"]);
});

test("a background write made stale by a newer save is dropped: the newer file stays", async () => {
  const dir = tempDir();
  const path = join(dir, "state.json");
  writeStateFileSync(path, "old");
  let newest = 1;
  const pending = writeStateFileInBackground(path, "from the older save", { commit: () => newest === 1 });
  newest = 2;
  writeStateFileSync(path, "from the newer save");
  expect(await pending).toBe(false);
  expect(readFileSync(path, "utf8")).toBe("from the newer save");
  expect(readdirSync(dir)).toEqual(["state.json"]);
});
