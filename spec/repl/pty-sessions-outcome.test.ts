// /sessions in the loop marks a headless run that never got an answer (docs/sessions.md).
import { expect, test } from "bun:test";
import { runShiro, tempDir } from "../support/cli.ts";
import { usePty } from "./pty.ts";

const { serve, start } = usePty();

test("/sessions marks the run the server refused as failed (no answer), and not the answered one", async () => {
  const home = tempDir("shiro-home-");
  const cwd = tempDir("shiro-work-");
  const s = await serve({ text: "answered" }, { status: 400, body: { error: { message: "Invalid model id", type: "invalid_request_error" } } });
  expect((await runShiro(["-p", "the answered one"], { baseURL: s.url, cwd, home })).code).toBe(0);
  expect((await runShiro(["-p", "the refused one"], { baseURL: s.url, cwd, home })).code).toBe(1);
  const pty = await start({ baseURL: s.url, cwd, home });
  await pty.waitForPrompt(1);
  pty.line("/sessions");
  await pty.waitFor("Resume one with /resume");
  expect(pty.screen()).toMatch(/the refused one +1 msg +failed \(no answer\)\n/);
  expect(pty.screen()).toMatch(/the answered one +2 msgs\n/);
}, 20_000);
