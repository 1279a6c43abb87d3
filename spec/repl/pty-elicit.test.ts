import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { toolOutputsIn } from "../support/requests.ts";
import { KEYS, usePty, type Pty } from "./pty.ts";

const { serve, start } = usePty();
const BOOKER = join(import.meta.dir, "..", "support", "mcp", "elicit-server.ts");
const ASKS = 'The MCP server "booker" asks: Details of the booking';
const ANSWER_IT = "Answer it? a accept · d decline · c cancel";

/** A home whose config has the booker server (its tool asks the user for a booking's details), allowed to run unasked. */
function bookerHome(): string {
  const home = tempDir();
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ mcpServers: { booker: { command: process.execPath, args: [BOOKER], allow: ["*"] } } }));
  return home;
}

/** Starts the loop, waits for the server to connect, and sends the prompt whose turn calls the tool. */
async function bookingTurn(): Promise<{ pty: Pty; result: () => Promise<unknown> }> {
  const s = await serve({ toolCalls: [{ name: "mcp__booker__book", input: {} }] }, { text: "booking handled" });
  const pty = await start({ baseURL: s.url, home: bookerHome() });
  await pty.waitForPrompt(1);
  for (let i = 1; ; i++) {
    pty.line("/mcp");
    try {
      await pty.waitFor(/booker \(stdio, from config\): connected/, { timeoutMs: 1_000 });
      break;
    } catch (error) {
      if (i >= 20) throw error;
    }
  }
  pty.line("book a table");
  await pty.waitFor(ASKS);
  await pty.waitFor(ANSWER_IT);
  const result = async () => {
    await pty.waitFor("booking handled");
    return JSON.parse(toolOutputsIn(s.requests[1]!.body).join(""));
  };
  return { pty, result };
}

test("a server's question in the loop: its fields are shown, accepted and typed one by one, a wrong answer asked again, and the tool gets the answers in the schema's types", async () => {
  const { pty, result } = await bookingTurn();
  const screen = pty.screen();
  expect(screen).toContain("Seats (integer, 1 to 4, default 2)");
  expect(screen).toContain("Name (text, required): who books");
  expect(screen).toContain("Meal (one of: veg (Vegetarian), fish (Fish))");
  // Like an approval question, it takes the live area: the spinner gives way to it.
  expect(pty.cursorLine()).toContain(ANSWER_IT);
  pty.write("a");
  await pty.waitUntil("the Seats question on the input row", () => pty.cursorLine().includes("Seats (integer, 1 to 4, default 2):"));
  pty.line("5");
  await pty.waitFor("Seats: the number must be from 1 to 4");
  await pty.waitUntil("Seats asked again", () => pty.cursorLine().includes("Seats (integer") && !pty.cursorLine().includes("5"));
  pty.write("33");
  await pty.waitUntil("the typed answer on the question row", () => pty.cursorLine().includes("default 2): 33"));
  pty.write("\x7f"); // backspace: one 3 goes
  pty.write(KEYS.enter);
  await pty.waitUntil("the Name question", () => pty.cursorLine().includes("Name (text, required)"));
  pty.line("Ada Lovelace");
  await pty.waitUntil("the VIP question", () => pty.cursorLine().includes("VIP (yes or no, default false)"));
  pty.write(KEYS.enter); // empty: the default
  await pty.waitUntil("the Meal question", () => pty.cursorLine().includes("Meal (one of"));
  pty.line("Fish");
  expect(await result()).toEqual({ action: "accept", content: { seats: 3, name: "Ada Lovelace", vip: false, meal: "fish" } });
  await pty.waitForPrompt(2);
  pty.write(KEYS.ctrlD);
  expect(await pty.exited).toBe(0);
}, 60_000);

test("d declines a server's question: the tool is told so and the turn goes on", async () => {
  const { pty, result } = await bookingTurn();
  pty.write("d");
  expect(await result()).toEqual({ action: "decline" });
  await pty.waitForPrompt(2);
  expect(pty.screen()).not.toContain("Seats (integer, 1 to 4, default 2):");
  pty.write(KEYS.ctrlD);
  expect(await pty.exited).toBe(0);
}, 60_000);

test("esc in the middle of a server's fields cancels the whole question, without stopping the turn", async () => {
  const { pty, result } = await bookingTurn();
  pty.write("a");
  await pty.waitUntil("the Seats question", () => pty.cursorLine().includes("Seats (integer"));
  pty.line("2");
  await pty.waitUntil("the Name question", () => pty.cursorLine().includes("Name (text, required)"));
  pty.write("Ad");
  await pty.waitUntil("typed", () => pty.cursorLine().includes("who books: Ad"));
  pty.write(KEYS.esc);
  expect(await result()).toEqual({ action: "cancel" });
  await pty.waitForPrompt(2);
  // The turn was not interrupted: the model's answer came after the tool's.
  expect(pty.screen()).not.toContain("interrupted");
  pty.write(KEYS.ctrlD);
  expect(await pty.exited).toBe(0);
}, 60_000);

test("esc at the first question cancels it at once; no field is asked", async () => {
  const { pty, result } = await bookingTurn();
  pty.write(KEYS.esc);
  expect(await result()).toEqual({ action: "cancel" });
  await pty.waitForPrompt(2);
  expect(pty.screen()).not.toContain("Seats (integer, 1 to 4, default 2):");
  pty.write(KEYS.ctrlD);
  expect(await pty.exited).toBe(0);
}, 60_000);

test("leaving shiro (ctrl-d twice) while a field is asked cancels the question and exits", async () => {
  serve.allowLeftovers("shiro leaves before the tool's result goes back to the model");
  const { pty } = await bookingTurn();
  pty.write("a");
  await pty.waitUntil("the Seats question", () => pty.cursorLine().includes("Seats (integer"));
  pty.write(KEYS.ctrlD);
  await pty.waitFor("ctrl-d again exits (the turn is still running)");
  pty.write(KEYS.ctrlD);
  expect(await pty.exited).toBe(0);
}, 60_000);
