// The grep tool on a minified or machine-made file returns at once with the start of each long
// line and a note, instead of reading the whole line into memory.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { toolOutputsIn } from "../support/requests.ts";

const serve = useFakeServer();

test("grep over a 10 MB line of `a` for a{5} comes back cut, with a note", async () => {
  const work = tempDir();
  writeFileSync(join(work, "bundle.min.js"), `${"a".repeat(10_000_000)}\n`);
  const s = await serve({ toolCalls: [{ name: "grep", input: { pattern: "a{5}" } }] }, { text: "done" });
  const run = await runShiro(["-p", "search", "--json"], { baseURL: s.url, cwd: work });
  expect(run.code).toBe(0);
  const [output] = toolOutputsIn(s.requests[1]!.body);
  expect(output).toBe(`bundle.min.js:1: ${"a".repeat(300)}… [long line cut]\n\n[Lines over 300 characters are shown cut; read_file shows more of a line.]`);
  expect(jsonLines(run.stdout).find((line) => line.type === "tool-result")?.summary).toBe("1 match in 1 file");
});
