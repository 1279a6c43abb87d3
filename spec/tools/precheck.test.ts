// A call that cannot succeed is found before it is asked about (ToolDef.precheck), with the very
// error the tool gives when it runs; a call that can succeed passes, and nothing is changed.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { precheckTool, type AnyTool } from "../../lib/tools/define.ts";
import { coreTools } from "../../lib/tools/index.ts";
import { errorOf, makeWorkspace, runTool, type Workspace } from "./fixture.ts";

let ws: Workspace;
beforeEach(() => (ws = makeWorkspace()));
afterEach(() => ws.cleanup());
const tool = (name: string): AnyTool => coreTools.find((t) => t.name === name)!;

/** precheck's message, and runTool's for the same call: they must be the same. */
async function both(name: string, input: unknown): Promise<{ precheck: string | undefined; run: string }> {
  const failure = await precheckTool(tool(name), input, ws.ctx);
  return { precheck: failure?.message, run: await errorOf(runTool(tool(name), input, ws.ctx)) };
}

test.each([
  ["edit_file", { path: "a.txt", oldString: "three", newString: "3" }, "oldString was not found in a.txt"],
  ["edit_file", { path: "a.txt", oldString: "o", newString: "0" }, "oldString appears 2 times in a.txt"],
  ["edit_file", { path: "missing.txt", oldString: "x", newString: "y" }, "missing.txt"],
  ["multi_edit", { path: "a.txt", edits: [{ oldString: "one", newString: "1" }, { oldString: "nine", newString: "9" }] }, "edit 2 of 2 failed"],
  ["write_file", { path: "/etc/shiro-precheck", content: "x" }, "is outside the workspace"],
  ["write_file", { path: "../up.txt", content: "x" }, "is outside the workspace"],
  ["write_file", { path: ".env", content: "KEY=1" }, ".env is a secrets file"],
  ["edit_file", { path: "keys/server.pem", oldString: "k", newString: "K" }, "server.pem is a secrets file"],
  ["delete_file", { path: "gone.txt" }, "gone.txt"],
  ["move_file", { from: "a.txt", to: "b.txt" }, "b.txt already exists"],
  ["apply_patch", { input: "*** Begin Patch\n*** Update File: a.txt\n@@\n-nine\n+9\n*** End Patch" }, "does not apply"],
  ["write_file", { path: 7 }, "invalid arguments"],
])("%s %j fails before the question with the error it gives when run", async (name, input, expected) => {
  ws.write({ "a.txt": "one\ntwo\n", "b.txt": "b\n", "keys/server.pem": "k\n" });
  const { precheck, run } = await both(name, input);
  expect(run).toContain(expected);
  expect(precheck).toBe(run);
});

test("a call that can succeed passes the precheck and changes nothing", async () => {
  ws.write({ "a.txt": "one\ntwo\n" });
  expect(await precheckTool(tool("edit_file"), { path: "a.txt", oldString: "two", newString: "2" }, ws.ctx)).toBeUndefined();
  expect(await precheckTool(tool("write_file"), { path: "new/c.txt", content: "c" }, ws.ctx)).toBeUndefined();
  expect(await precheckTool(tool("delete_file"), { path: "a.txt" }, ws.ctx)).toBeUndefined();
  expect(await precheckTool(tool("bash"), { command: "rm -rf x" }, ws.ctx)).toBeUndefined(); // no precheck: commands are judged by running
  expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("one\ntwo\n");
  expect(existsSync(ws.path("new"))).toBe(false);
});
