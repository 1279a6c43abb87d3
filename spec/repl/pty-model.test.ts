// The /model picker through the binary against the fake server's model list: /model alone lists
// the server's models (the current one marked, the window where the server states it), arrows
// and enter switch, the status line shows the new model and the next request uses it; an id the
// server does not list is warned about and switched to; a server without a list says so.
import { expect, test } from "bun:test";
import { WIRES } from "../support/requests.ts";
import { KEYS, usePty } from "./pty.ts";

const { serve, start } = usePty();

/** OpenRouter's list states each model's window; the ids are its own. */
const MODELS = {
  "qwen/qwen3-coder": { contextWindow: 262_144 },
  "openai/gpt-5-mini": { contextWindow: 400_000 },
  "mistralai/devstral-medium": { contextWindow: 131_072 },
};

for (const { wire, flags } of WIRES) {
  test(`/model alone opens a picker of the server's models; the choice is used from the next request (${wire})`, async () => {
    const s = await serve.with({ vendor: "openrouter", models: MODELS })({ text: "answered by the first" }, { text: "answered by the second" });
    const pty = await start({ baseURL: s.url, args: [...flags, "-m", "openai/gpt-5-mini"], env: { SHIRO_CLIENT: undefined } });
    await pty.waitForPrompt(1);
    pty.line("hello");
    await pty.waitFor("answered by the first");
    await pty.waitForPrompt(2);

    pty.line("/model");
    await pty.waitFor("Switch to which model? (3 from");
    const rows = pty.screen().split("\n");
    const title = rows.findIndex((row) => row.startsWith("Switch to which model?"));
    expect(rows.slice(title + 2, title + 5).map((r) => r.trimEnd().replace(/ {2,}/g, "  "))).toEqual([
      "  mistralai/devstral-medium  window 131,072 tokens",
      "› openai/gpt-5-mini  window 400,000 tokens  (current)",
      "  qwen/qwen3-coder  window 262,144 tokens",
    ]);
    pty.write(KEYS.down);
    await pty.waitFor(/^› qwen\/qwen3-coder/m);
    pty.write(KEYS.enter);
    await pty.waitFor("model: qwen/qwen3-coder from the next prompt on;");
    await pty.waitFor(/qwen\/qwen3-coder · ctx ~/);

    pty.line("again");
    await pty.waitFor("answered by the second");
    const turns = s.requests.filter((r) => r.wire !== "other");
    expect(turns.map((r) => r.body.model)).toEqual(["openai/gpt-5-mini", "qwen/qwen3-coder"]);
  }, 30_000);
}

test("/model <id> the server does not list: a warning with the look-alikes, and the switch is made", async () => {
  const s = await serve.with({ vendor: "openrouter", models: MODELS })({ text: "answered by the chosen one" });
  const pty = await start({ baseURL: s.url, args: ["--api", "chat", "-m", "openai/gpt-5-mini"], env: { SHIRO_CLIENT: undefined } });
  await pty.waitForPrompt(1);
  pty.line("/model qwen/qwen3-coderr");
  await pty.waitFor("qwen/qwen3-coderr is not one of the 3 models");
  expect(pty.screen()).toContain("(did you mean qwen/qwen3-coder?)");
  await pty.waitFor("model: qwen/qwen3-coderr from the next prompt on;");
  // A listed id is taken without a word.
  pty.line("/model mistralai/devstral-medium");
  await pty.waitFor("model: mistralai/devstral-medium from the next prompt on;");
  expect(pty.screen()).not.toContain("mistralai/devstral-medium is not one of");
  // Tab completes from the list the server gave.
  pty.write("/model qw");
  pty.write(KEYS.tab);
  await pty.waitForInput("/model qwen/qwen3-coder ");
  pty.write(KEYS.enter);
  await pty.waitFor("model: qwen/qwen3-coder from the next prompt on;");
  pty.line("hi");
  await pty.waitFor("answered by the chosen one");
  expect(s.requests.filter((r) => r.wire !== "other").map((r) => r.body.model)).toEqual(["qwen/qwen3-coder"]);
}, 30_000);

test("a server without a model list: /model says so in one line and keeps today's behaviour", async () => {
  // Nobody listens on port 9: no list at all.
  const down = "http://127.0.0.1:9/v1";
  let pty = await start({ baseURL: down, cols: 200 });
  await pty.waitForPrompt(1);
  pty.line("/model");
  await pty.waitFor(`model: gpt-5-mini (openai, ${down}) · the server has no model list (could not connect to ${down} (connection refused: is the server running?)); /model <id> switches`);
  pty.line("/model other-model");
  await pty.waitFor("model: other-model from the next prompt on;");
  expect(pty.screen()).not.toContain("is not one of");
  await pty.waitForPrompt(1); // idle again: during the turn a first ctrl-d only warns
  pty.write(KEYS.ctrlD);
  await pty.exited;

  // A server whose list is empty.
  const s = await serve.with({ vendor: "openai" })();
  pty = await start({ baseURL: s.url });
  await pty.waitForPrompt(1);
  pty.line("/model");
  await pty.waitFor(`model: gpt-5-mini (openai, ${s.url}) · the server lists no models; /model <id> switches`);
}, 20_000);
