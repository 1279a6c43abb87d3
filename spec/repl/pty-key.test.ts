// The interactive loop with the key in the environment: shiro re-executes itself without it
// (cmd/key-guard.ts) and keeps the terminal; the key still reaches the provider, and a command
// approved in the loop finds no key in shiro's environment block.
import { expect, test } from "bun:test";
import { toolOutputsIn } from "../support/requests.ts";
import { tempDir } from "../support/cli.ts";
import { usePty } from "./pty.ts";

const { serve, start } = usePty();
const KEY = "sk-pty-environ-secret-777";

test("the loop works with the key in the environment, and /proc/$PPID/environ does not show it", async () => {
  const command = "tr '\\0' '\\n' < /proc/$PPID/environ | base64 -w0";
  const s = await serve({ toolCalls: [{ name: "bash", input: { command } }] }, { text: "looked" });
  const pty = await start({ baseURL: s.url, cwd: tempDir(), env: { SHIRO_API_KEY: KEY }, args: ["--no-sandbox"] });
  await pty.waitForPrompt(1);
  pty.line("look at your parent");
  await pty.waitFor("allow?");
  pty.write("y");
  await pty.waitFor("looked");
  expect(s.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  const [output] = toolOutputsIn(s.requests[1]!.body);
  const environ = Buffer.from(output!.replace(/^Exit code \d+\n/, "").replace(/\s+/g, ""), "base64").toString("utf8");
  expect(environ).toContain("HOME=");
  expect(environ.includes(KEY)).toBe(false);
}, 30_000);
