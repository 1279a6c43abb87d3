// What the confined walk (lib/fs/confined.ts) promises without any race: symlinks whose target
// is inside the workspace are followed (relative, absolute, chained, through `..`), anything
// leading out is refused, a secrets file is refused by the name finally reached, and the file
// operations act on what was reached. The race itself: spec/tools/confined-race.test.ts.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OutsideError, useProcFd } from "../../lib/fs/confined.ts";
import { lstatConfined, mkdirsConfined, readConfined, readdirConfined, readLinesConfined, renameConfined, rmdirConfined, statConfined, unlinkConfined, writeConfined } from "../../lib/fs/confined-ops.ts";
import { tempDir } from "../support/cli.ts";

let root: string;
let outside: string;
const at = (rel: string) => join(root, rel);
const text = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : undefined);
const where = () => ({ root, tool: "test" });

beforeEach(() => {
  root = tempDir("shiro-confined-");
  outside = tempDir("shiro-elsewhere-");
  mkdirSync(at("src/deep"), { recursive: true });
  writeFileSync(at("src/deep/a.txt"), "a\n");
  writeFileSync(join(outside, "secret.txt"), "OUTSIDE\n");
});

// Linux names each folder through its descriptor (/proc/self/fd); other systems through the walked
// path with a device-and-inode check. Both ways must keep the same promises where nothing races.
for (const [system, proc] of [["with /proc (Linux)", true], ["without /proc (the macOS way)", false]] as const) {
  describe(system, () => {
    beforeEach(() => useProcFd(proc));
    afterEach(() => useProcFd());

    describe("links inside the workspace are followed, as before", () => {
      test("relative, absolute, chained and through ..", () => {
        symlinkSync("src/deep", at("rel"));
        symlinkSync(at("src"), at("abs"));
        symlinkSync("rel", at("chain"));
        symlinkSync("../deep/a.txt", at("src/deep/up"));
        for (const path of ["rel/a.txt", "abs/deep/a.txt", "chain/a.txt", "src/deep/up", "src/../src/deep/a.txt"]) {
          const found = readConfined(where(), at(path));
          expect([path, text(found.bytes)]).toEqual([path, "a\n"]);
        }
        expect(readConfined(where(), at("rel/a.txt"))).toMatchObject({ kind: "file", real: at("src/deep/a.txt") });
      });

      test("a write through a link inside lands on its target and keeps the link", () => {
        symlinkSync("src/deep/a.txt", at("link.txt"));
        writeConfined(where(), at("link.txt"), "new\n");
        expect(lstatSync(at("link.txt")).isSymbolicLink()).toBe(true);
        expect(readFileSync(at("src/deep/a.txt"), "utf8")).toBe("new\n");
      });
    });

    describe("anything leading out is refused", () => {
      test("a link out, in the middle or at the end, absolute or relative; and a .. above the root", () => {
        symlinkSync(outside, at("out"));
        symlinkSync(join("..", "..", outside.split("/").pop()!), at("src/rel-out"));
        symlinkSync(join(outside, "secret.txt"), at("file-out.txt"));
        for (const path of ["out/secret.txt", "src/rel-out/secret.txt", "file-out.txt"]) {
          expect(() => readConfined(where(), at(path))).toThrow(OutsideError);
          expect(() => writeConfined(where(), at(path), "x")).toThrow(OutsideError);
        }
        expect(() => readConfined(where(), `${root}/src/../../x`)).toThrow(OutsideError);
        expect(() => writeConfined(where(), at("out/new/file.txt"), "x")).toThrow(OutsideError);
        expect(existsSync(join(outside, "new"))).toBe(false);
        expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("OUTSIDE\n");
      });

      test("unlink, rename and rmdir never act through a link out; a link itself is removed, not its target", () => {
        symlinkSync(outside, at("out"));
        expect(() => unlinkConfined(where(), at("out/secret.txt"))).toThrow(OutsideError);
        expect(() => renameConfined(where(), at("out/secret.txt"), at("stolen.txt"))).toThrow(OutsideError);
        expect(() => renameConfined(where(), at("src/deep/a.txt"), at("out/planted.txt"))).toThrow(OutsideError);
        expect(rmdirConfined(where(), at("out/x"))).toBe(false);
        unlinkConfined(where(), at("out"));
        expect(existsSync(at("out"))).toBe(false);
        expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("OUTSIDE\n");
        expect(existsSync(join(outside, "planted.txt"))).toBe(false);
      });

      test("a link loop is refused with a clear line", () => {
        symlinkSync("loop2", at("loop1"));
        symlinkSync("loop1", at("loop2"));
        expect(() => readConfined(where(), at("loop1/x"))).toThrow("more than 40 symlinks");
      });
    });

    test("a secrets file is refused by the name reached, whatever the link is called", () => {
      writeFileSync(at(".env"), "KEY=1\n");
      symlinkSync(".env", at("notes.txt"));
      expect(() => readConfined(where(), at("notes.txt"))).toThrow("leads to a secrets file");
      expect(() => writeConfined(where(), at("notes.txt"), "x")).toThrow("leads to a secrets file");
      expect(readFileSync(at(".env"), "utf8")).toBe("KEY=1\n");
    });

    test("the operations do what they say inside: stat, read, write with mode, mkdir, rename, unlink, rmdir, list", () => {
      expect(statConfined(where(), at("nope"))).toEqual({ kind: "missing" });
      expect(statConfined(where(), at("src"))).toMatchObject({ kind: "dir" });
      expect(readConfined(where(), at("src/deep/a.txt"), { maxBytes: 1 })).toMatchObject({ kind: "file", size: 2 });
      expect(readConfined(where(), at("src/deep/a.txt"), { maxBytes: 1 }).bytes).toBeUndefined();
      expect(writeConfined(where(), at("made/here/b.txt"), "b\n", { mode: 0o640 })).toEqual({ existed: false, made: at("made") });
      expect(statSync(at("made/here/b.txt")).mode & 0o777).toBe(0o640);
      expect(writeConfined(where(), at("made/here/b.txt"), "b2\n")).toEqual({ existed: true });
      expect(statSync(at("made/here/b.txt")).mode & 0o777).toBe(0o640); // kept
      expect(mkdirsConfined(where(), at("x/y"))).toBe(at("x"));
      expect(renameConfined(where(), at("made/here/b.txt"), at("z/b.txt"))).toEqual({ made: at("z") });
      expect(readFileSync(at("z/b.txt"), "utf8")).toBe("b2\n");
      expect(readdirConfined(where(), at("z"))).toEqual([{ name: "b.txt", kind: "file" }]);
      unlinkConfined(where(), at("z/b.txt"));
      expect(lstatConfined(where(), at("z/b.txt"))).toBeUndefined();
      expect(rmdirConfined(where(), at("z"))).toBe(true);
      expect(rmdirConfined(where(), at("made"))).toBe(false); // not empty
      writeFileSync(at("lines.txt"), `${Array.from({ length: 100_000 }, (_, i) => `line ${i}`).join("\n")}`);
      expect(readLinesConfined(where(), at("lines.txt"), 3)).toEqual(["line 0", "line 1", "line 2"]);
      expect(readLinesConfined(where(), at("lines.txt"), 200_000)?.at(-1)).toBe("line 99999"); // the last line, without a newline
      expect(readLinesConfined(where(), at("src"), 1)).toBeUndefined();
    });
  });
}
