import { expect, test } from "bun:test";
import { usePty } from "./pty.ts";

const { serve, start } = usePty();

test("the thinking spinner counts seconds while the reasoning grows", async () => {
  const s = await serve({ reasoning: "weighing ".repeat(60), text: "decided.", delayMs: 60 });
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("think it over");
  // The token count changes with every chunk; the clock goes on all the same.
  await pty.waitFor(/thinking · [1-9]s · ~\d+ tokens/, { timeoutMs: 8_000 });
  await pty.waitFor("decided.");
  expect(pty.screen()).toContain("decided.");
}, 20_000);
