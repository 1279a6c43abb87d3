import { expect, test } from "bun:test";
import { usePty } from "./pty.ts";

const { serve, start } = usePty();

const spinner = (screen: string) => screen.split("\n").find((row) => /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /.test(row));

test("while a turn waits to retry after a provider error, the spinner says so with the seconds left, then goes back to working", async () => {
  const s = await serve(
    // The server asks for 2.5 seconds; shiro waits that long before sending the request again.
    { status: 503, headers: { "retry-after-ms": "2500" }, body: { error: { message: "overloaded, try again soon", type: "server_error" } } },
    { text: "answered after the wait", delayMs: 300 },
  );
  const pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("hello");
  await pty.waitFor("retrying in 2.5s (attempt 2 of");
  await pty.waitUntil("the countdown", () => /^. waiting to retry · 3s left · esc to interrupt$/.test(spinner(pty.screen()) ?? ""));
  await pty.waitUntil("the countdown going down", () => /^. waiting to retry · 2s left · esc to interrupt$/.test(spinner(pty.screen()) ?? ""));
  expect(spinner(pty.screen())).not.toContain("working");
  // The wait is over and the request is on its way again: the spinner is back to what it said before.
  await pty.waitUntil("working again", () => /^. working · esc to interrupt$/.test(spinner(pty.screen()) ?? ""), 6_000);
  await pty.waitFor("answered after the wait");
  await pty.waitForPrompt(2);
  expect(spinner(pty.screen())).toBeUndefined();
  expect(s.requests).toHaveLength(2);
}, 20_000);

test("a retry note too long for the terminal wraps under its text, not at column 0", async () => {
  const s = await serve(
    { status: 500, body: { error: { message: "The server had an error while processing your request. Sorry about that!", type: "server_error" } } },
    { text: "recovered" },
  );
  const pty = await start({ baseURL: s.url, cols: 60 });
  await pty.waitForPrompt(1);
  pty.line("hello");
  await pty.waitFor("recovered");
  await pty.waitForPrompt(2);
  const rows = pty.screen().split("\n");
  const first = rows.findIndex((row) => row.startsWith("note: provider returned 500"));
  expect(first).toBeGreaterThan(-1);
  const rest = rows.slice(first + 1, rows.findIndex((row, i) => i > first && row.includes("(attempt 2 of")) + 1);
  expect(rest.length).toBeGreaterThan(0);
  for (const row of rest) expect(row).toMatch(/^ {6}\S/);
}, 20_000);
