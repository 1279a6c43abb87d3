import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { runShiro, tempDir } from "../support/cli.ts";
import { toolOutputsIn, WIRES } from "../support/requests.ts";

setDefaultTimeout(60_000);
const serve = useFakeServer();
const DEMO = join(import.meta.dir, "..", "support", "mcp", "demo-server.ts");

function toolNamesIn(body: any): string[] {
  return (body.tools ?? []).map((t: any) => t.name ?? t.function?.name);
}

// Headless waits 10 s for its servers (HEADLESS_WAIT_MS); this one answers initialize after 11.5 s,
// so the turn starts without it, and a 4-second command keeps the turn going until it is up.
for (const { wire, flags } of WIRES) {
  test(`headless (${wire}): a server that becomes ready during the turn has its tools in the turn's next request, and the strict server sees a valid history`, async () => {
    const home = tempDir();
    mkdirSync(join(home, ".shiro-neko"));
    writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ mcpServers: { slow: { command: process.execPath, args: [DEMO, "--slow-init", "11500"], allow: ["*"] } } }));
    const s = await serve(
      { toolCalls: [{ name: "bash", input: { command: "sleep 4" } }] },
      { toolCalls: [{ name: "mcp__slow__echo", input: { text: "joined mid-turn" } }] },
      { text: "done" },
    );
    const run = await runShiro(["-p", "wait, then use slow", "--yolo", ...flags], { baseURL: s.url, home });
    expect(run.code).toBe(0);
    expect(toolNamesIn(s.requests[0]!.body).some((n) => n.startsWith("mcp__"))).toBe(false);
    expect(toolNamesIn(s.requests[1]!.body)).toContain("mcp__slow__echo");
    expect(toolOutputsIn(s.requests[2]!.body).at(-1)).toBe("echo: joined mid-turn");
  });
}
