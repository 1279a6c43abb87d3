// The interactive side of the sandbox: a command the sandbox stopped is offered once outside it,
// with the reason; and an "always" for git never covers git running something else.
import { afterAll, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { toolOutputsIn } from "../support/requests.ts";
import { reportSkip, sandboxUnavailable, siblingLayout } from "../sandbox/support.ts";
import { SANDBOX_AS_THE_HOST_HAS_IT } from "../support/host-tools.ts";
import { KEYS, usePty } from "./pty.ts";

const { serve, start } = usePty();
const unavailable = sandboxUnavailable();
reportSkip("spec/repl/pty-sandbox.test.ts", unavailable);
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function layout() {
  const { top, home, cwd, sibling } = siblingLayout("shiro-pty-sandbox-");
  made.push(top);
  return { home, cwd, sibling };
}

test.skipIf(unavailable !== undefined)("a write the sandbox stopped is offered once outside it, with the reason; n keeps it stopped", async () => {
  const { home, cwd, sibling } = layout();
  const command = `echo after > ${join(sibling, "file.txt")}`;
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command } }] },
    { toolCalls: [{ name: "bash", input: { command: `${command} && echo again` } }] },
    { text: "all done" },
  );
  const pty = await start({ baseURL: s.url, cwd, home, args: ["--yolo"], env: SANDBOX_AS_THE_HOST_HAS_IT });
  await pty.waitForPrompt(1);
  expect(pty.screen()).toContain("sandbox on: commands write only to the workspace · network on");
  pty.line("update the sibling");
  await pty.waitFor("failed in the sandbox: it tried to write outside the workspace");
  await pty.waitUntil("the outside question", () => pty.cursorLine().startsWith("run it once outside the sandbox? y yes · n no"));
  expect(readFileSync(join(sibling, "file.txt"), "utf8")).toBe("before\n");
  pty.write("y");
  await pty.waitFor("running once outside the sandbox");
  await pty.waitFor("failed in the sandbox", { count: 2 });
  await pty.waitUntil("the second question", () => pty.cursorLine().startsWith("run it once outside"));
  expect(readFileSync(join(sibling, "file.txt"), "utf8")).toBe("after\n");
  writeFileSync(join(sibling, "file.txt"), "before\n");
  pty.write("n");
  await pty.waitFor("kept in the sandbox");
  await pty.waitFor("all done");
  expect(readFileSync(join(sibling, "file.txt"), "utf8")).toBe("before\n");
  expect(toolOutputsIn(s.requests[1]!.body).join("")).toContain("the user let it run once outside the sandbox");
  expect(toolOutputsIn(s.requests[2]!.body).join("")).toContain("The user chose not to run it outside the sandbox");
}, 30_000);

test.skipIf(unavailable !== undefined)("a command asked about and then stopped by the sandbox is shown once; the outside question gives only the reason", async () => {
  const { home, cwd, sibling } = layout();
  const command = `echo after > ${join(sibling, "file.txt")}`;
  const s = await serve({ toolCalls: [{ name: "bash", input: { command } }] }, { text: "all done" });
  const pty = await start({ baseURL: s.url, cwd, home, env: SANDBOX_AS_THE_HOST_HAS_IT });
  await pty.waitForPrompt(1);
  pty.line("update the sibling");
  await pty.waitUntil("the approval question", () => pty.cursorLine().startsWith("allow?"));
  pty.write("y");
  await pty.waitUntil("the outside question", () => pty.cursorLine().startsWith("run it once outside the sandbox? y yes · n no"));
  const screen = pty.screen();
  expect(screen.split("bash wants to run").length - 1).toBe(1);
  expect(screen).toContain("  failed in the sandbox: it tried to write outside the workspace");
  pty.write("n");
  await pty.waitFor("all done");
}, 30_000);

test('"always" for git status does not cover an alias from the repository config', async () => {
  const { home, cwd } = layout();
  Bun.spawnSync(["git", "init", "-q"], { cwd });
  Bun.spawnSync(["git", "config", "alias.st", `!touch ${join(cwd, "ALIAS-RAN")}`], { cwd });
  const s = await serve(
    { toolCalls: [{ name: "bash", input: { command: "git add --dry-run ." } }] },
    { toolCalls: [{ name: "bash", input: { command: "git add --dry-run -A" } }] },
    { toolCalls: [{ name: "bash", input: { command: "git st" } }] },
    { text: "all done" },
  );
  const pty = await start({ baseURL: s.url, cwd, home, env: SANDBOX_AS_THE_HOST_HAS_IT });
  await pty.waitForPrompt(1);
  pty.line("look at git");
  await pty.waitUntil("the first question", () => pty.cursorLine().includes("a always (bash commands starting with `git add`)"));
  pty.write("a");
  await pty.waitUntil("how long it lasts", () => pty.cursorLine().startsWith("keep it?"));
  pty.write("s");
  await pty.waitFor("→ bash git add --dry-run -A"); // covered: announced, not asked
  await pty.waitFor("bash wants to run: git st"); // not one of git's own commands: asked again
  await pty.waitUntil("the alias question", () => pty.cursorLine().startsWith("allow?"));
  pty.write("n");
  await pty.waitFor("what should shiro do instead?");
  pty.write(KEYS.enter); // just deny
  await pty.waitFor("all done");
  expect(existsSync(join(cwd, "ALIAS-RAN"))).toBe(false);
}, 30_000);
