import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { runShiro, tempDir } from "../support/cli.ts";
import { toolOutputsIn } from "../support/requests.ts";

setDefaultTimeout(30_000);
const serve = useFakeServer();
const BOOKER = join(import.meta.dir, "..", "support", "mcp", "elicit-server.ts");

test("headless, shiro does not declare elicitation, so a server that would ask a question does not, and its tool still answers", async () => {
  const home = tempDir();
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ mcpServers: { booker: { command: process.execPath, args: [BOOKER], allow: ["*"] } } }));
  const s = await serve({ toolCalls: [{ name: "mcp__booker__book", input: {} }] }, { text: "done" });
  const run = await runShiro(["-p", "book a table"], { baseURL: s.url, home });
  expect(run.code).toBe(0);
  expect(toolOutputsIn(s.requests[1]!.body).join("")).toBe("no elicitation: the client cannot be asked");
});
