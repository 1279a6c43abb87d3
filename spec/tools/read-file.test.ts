import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { readFileTool } from "../../lib/tools/read-file.ts";
import { isSensitivePath } from "../../lib/fs/sensitive-path.ts";
import { errorOf, makeWorkspace, runTool, type Workspace } from "./fixture.ts";

let ws: Workspace;
beforeEach(() => (ws = makeWorkspace()));
afterEach(() => ws.cleanup());

const read = (input: unknown) => runTool(readFileTool, input, ws.ctx);
const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

describe("read_file", () => {
  test("numbers lines from 1 like cat -n and reports the line count", async () => {
    ws.write({ "src/a.ts": "const a = 1;\r\n\tindented\n" });
    const result = await read({ path: "src/a.ts" });
    expect(result.output).toBe("     1\tconst a = 1;\n     2\t\tindented");
    expect(result.summary).toBe("2 lines");
  });

  test("offset and limit select a window and say where the file goes on", async () => {
    ws.write({ "a.txt": numbered(10) });
    const { output } = await read({ path: "a.txt", offset: 4, limit: 3 });
    expect(output).toBe(
      "     4\tline 4\n     5\tline 5\n     6\tline 6\n\n[Showing lines 4-6 of 10 in a.txt. Call read_file with offset 7 to read more.]",
    );
    const tail = await read({ path: "a.txt", offset: 9 });
    expect(tail.output).toEndWith("    10\tline 10\n\n[Showing lines 9-10 of 10 in a.txt.]");
  });

  test("reads 2000 lines by default and tells how to continue", async () => {
    ws.write({ "big.txt": "x\n".repeat(2500) });
    const { output } = await read({ path: "big.txt" });
    expect(output).toContain("  2000\tx\n\n[Showing lines 1-2000 of 2500 in big.txt. Call read_file with offset 2001 to read more.]");
    expect(output).not.toContain("  2001\t");
  });

  test("stops before runTool's 30,000-character cut and says where to resume", async () => {
    ws.write({ "wide.txt": `${"y".repeat(99)}\n`.repeat(500) });
    const { output } = await read({ path: "wide.txt" });
    expect(output.length).toBeLessThanOrEqual(30_000);
    expect(output).not.toContain("[output truncated");
    const match = /\[Showing lines 1-(\d+) of 500 in wide.txt. Call read_file with offset (\d+) to read more.\]$/.exec(output);
    expect(Number(match?.[2])).toBe(Number(match?.[1]) + 1);
    expect(output).toContain(`${match?.[1]}\t${"y".repeat(99)}\n\n[Showing`);
    const next = await read({ path: "wide.txt", offset: Number(match?.[2]) });
    expect(next.output).toStartWith(`${String(match?.[2]).padStart(6)}\t`);
  });

  test("clips very long lines", async () => {
    ws.write({ "min.js": "y".repeat(5000) });
    const { output } = await read({ path: "min.js" });
    expect(output).toBe(`     1\t${"y".repeat(2000)}… [3000 more characters on this line]`);
  });

  test("says a file is empty, and refuses an offset past the end", async () => {
    ws.write({ "empty.txt": "", "three.txt": "a\nb\nc\n" });
    expect((await read({ path: "empty.txt" })).output).toBe("empty.txt is empty.");
    expect(await errorOf(read({ path: "three.txt", offset: 4 }))).toBe(
      "read_file: offset 4 is past the end of three.txt, which has 3 lines.",
    );
  });

  test("refuses binary files", async () => {
    ws.write({ "logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]) });
    expect(await errorOf(read({ path: "logo.png" }))).toStartWith("read_file: logo.png is a binary file");
  });

  test("refuses .env, .env.* and *.pem but reads .env.example", async () => {
    ws.write({ ".env": "KEY=1\n", ".env.local": "KEY=2\n", "certs/server.pem": "---\n", ".env.example": "KEY=\n" });
    for (const path of [".env", ".env.local", "certs/server.pem"]) {
      const message = await errorOf(read({ path }));
      expect(message).toStartWith(`read_file: ${path} is a secrets file`);
      expect(message).not.toContain("KEY=");
    }
    expect((await read({ path: ".env.example" })).output).toBe("     1\tKEY=");
  });

  test("refuses a harmless-looking symlink to a secrets file", async () => {
    ws.write({ ".env": "KEY=1\n" });
    symlinkSync(ws.path(".env"), ws.path("config.txt"));
    expect(await errorOf(read({ path: "config.txt" }))).toContain("is a secrets file");
  });

  test("refuses directories and points to list_dir", async () => {
    mkdirSync(ws.path("src"));
    expect(await errorOf(read({ path: "src" }))).toBe("read_file: src is a directory. Use list_dir to see what it contains.");
  });

  test("a missing file names the path and suggests close matches", async () => {
    ws.write({ "src/config.ts": "", "src/other.ts": "" });
    expect(await errorOf(read({ path: "src/config.js" }))).toBe("read_file: src/config.js does not exist. Did you mean src/config.ts?");
    expect(await errorOf(read({ path: "src/zzz.md" }))).toBe(
      "read_file: src/zzz.md does not exist. Use glob or list_dir to find the right path.",
    );
    expect(await errorOf(read({ path: "nope/a.ts" }))).toContain("nor does its directory nope");
  });

  test("invalid arguments get an instructive message", async () => {
    expect(await errorOf(read({}))).toStartWith("read_file: invalid arguments (path:");
    expect(await errorOf(read({ path: "a", offset: 0 }))).toContain("offset:");
    expect(await errorOf(read({ path: "" }))).toContain("path must not be empty");
  });
});

describe("isSensitivePath", () => {
  test("matches secrets files by name, whatever the folder or case", () => {
    for (const path of [".env", "/x/y/.env", ".env.local", ".env.production", "a/.ENV", "key.pem", "dir/CERT.PEM"]) {
      expect(isSensitivePath(path)).toBe(true);
    }
    for (const path of [".env.example", "src/.env.example", "env.ts", ".envrc", "pem.txt", "a/.env/README"]) {
      expect(isSensitivePath(path)).toBe(false);
    }
  });
});
