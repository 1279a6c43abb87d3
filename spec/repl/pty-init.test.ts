// /init: the model writes AGENTS.md from the repository, as an edit the user approves.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { lastUserText, usePty } from "./pty.ts";

const { serve, start } = usePty();
const WRITTEN = "# AGENTS.md\n\n## Commands\n- `make test` runs the tests\n";

test("/init asks the model for AGENTS.md; its write is shown for approval and written after y", async () => {
  const cwd = tempDir();
  writeFileSync(join(cwd, "Makefile"), "test:\n\techo ok\n");
  const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "AGENTS.md", content: WRITTEN } }] }, { text: "Wrote AGENTS.md with the test command." });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("/init");
  await pty.waitFor("write_file wants to write: AGENTS.md (new file)  +4 -0");
  // What was asked is on screen, before the model's first tool call.
  expect(pty.screen()).toContain("› /init\nasking the model to read this project and write AGENTS.md\n");
  expect(pty.screen().indexOf("asking the model")).toBeLessThan(pty.screen().indexOf("write_file wants to write"));
  expect(pty.screen()).toContain("+## Commands");
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow?"));
  expect(existsSync(join(cwd, "AGENTS.md"))).toBe(false); // nothing written before the answer
  const prompt = lastUserText(s.requests[0]!.body);
  expect(prompt).toContain("There is no AGENTS.md yet: create it with write_file.");
  expect(prompt).toMatch(/build.*test.*lint/s);
  pty.write("y");
  await pty.waitFor("Wrote AGENTS.md with the test command.");
  expect(readFileSync(join(cwd, "AGENTS.md"), "utf8")).toBe(WRITTEN);
}, 20_000);

test("/init with words after it sends them with the prompt, as what the user wants stressed", async () => {
  const s = await serve({ text: "Noted." });
  const pty = await start({ baseURL: s.url, cwd: tempDir() });
  await pty.waitForPrompt(1);
  pty.line("/init say how to run one test file");
  await pty.waitFor("Noted.");
  expect(pty.screen()).toContain("asking the model to read this project and write AGENTS.md (focus: say how to run one test file)");
  const prompt = lastUserText(s.requests[0]!.body);
  expect(prompt).toContain("There is no AGENTS.md yet: create it with write_file.");
  expect(prompt).toEndWith("\n\nThe user adds: say how to run one test file");
}, 20_000);

test("/init with an AGENTS.md already there asks for it to be improved, and n leaves it alone", async () => {
  const cwd = tempDir();
  writeFileSync(join(cwd, "AGENTS.md"), "# old notes\n");
  const s = await serve({ toolCalls: [{ name: "edit_file", input: { path: "AGENTS.md", oldString: "# old notes", newString: "# AGENTS.md" } }] }, { text: "Left it as it was." });
  const pty = await start({ baseURL: s.url, cwd });
  await pty.waitForPrompt(1);
  pty.line("/init");
  await pty.waitFor("edit_file wants to edit: AGENTS.md  +1 -1");
  expect(pty.screen()).toContain("asking the model to read this project and improve AGENTS.md");
  expect(lastUserText(s.requests[0]!.body)).toContain("AGENTS.md already exists. Read it first");
  await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow?"));
  pty.write("n");
  await pty.waitFor("what should shiro do instead?");
  pty.line("");
  await pty.waitFor("Left it as it was.");
  expect(readFileSync(join(cwd, "AGENTS.md"), "utf8")).toBe("# old notes\n");
}, 20_000);

test("/init under an agent that cannot write files says so and sends nothing", async () => {
  const s = await serve();
  const pty = await start({ baseURL: s.url, args: ["--agent", "review"] });
  await pty.waitForPrompt(1);
  pty.line("/init");
  await pty.waitFor("/init needs an agent that can write files; review cannot. /agent default switches back.");
  expect(pty.screen()).not.toContain("asking the model");
  expect(s.requests).toHaveLength(0);
}, 20_000);
