import { expect, test } from "bun:test";
import { join } from "node:path";
import { connectServer } from "../../lib/mcp/connect.ts";
import { describeField, fieldsOf, parseFieldAnswer, type ElicitQuestion, type Elicitor } from "../../lib/mcp/elicitation.ts";
import { askElicitation } from "../../lib/mcp/elicitation-form.ts";
import { resultText } from "../../lib/mcp/result-text.ts";
import { tempDir } from "../support/cli.ts";

const SERVER = { command: process.execPath, args: [join(import.meta.dir, "..", "support", "mcp", "elicit-server.ts")] };

async function book(elicit?: Elicitor) {
  const home = tempDir();
  const connection = await connectServer("booker", SERVER, {
    root: home,
    home,
    env: {},
    version: "test",
    signal: new AbortController().signal,
    onClosed: () => {},
    onToolsChanged: () => {},
    ...(elicit ? { elicit } : {}),
  });
  try {
    return resultText(await connection.call("book", {}, AbortSignal.timeout(10_000)));
  } finally {
    await connection.close();
  }
}

test("a server's question reaches the asker with its fields (types, bounds, defaults, choices), and the answer goes back in the schema's types with the defaults filled in", async () => {
  let asked: ElicitQuestion | undefined;
  const text = await book(async (question) => {
    asked = question;
    const name = parseFieldAnswer(question.fields.find((f) => f.name === "name")!, "Ada");
    const meal = parseFieldAnswer(question.fields.find((f) => f.name === "meal")!, "vegetarian");
    return { action: "accept", content: { name: "value" in name ? name.value : "", meal: "value" in meal ? meal.value : "" } };
  });
  expect(asked!.server).toBe("booker");
  expect(asked!.message).toBe("Details of the booking");
  expect(asked!.fields.map(describeField)).toEqual([
    "Seats (integer, 1 to 4, default 2)",
    "Name (text, required): who books",
    "VIP (yes or no, default false)",
    "Meal (one of: veg (Vegetarian), fish (Fish))",
  ]);
  expect(JSON.parse(text)).toEqual({ action: "accept", content: { name: "Ada", meal: "veg", seats: 2, vip: false } });
});

test("declining goes back as a decline; without an asker (headless) shiro does not declare elicitation, so the server does not ask", async () => {
  expect(JSON.parse(await book(async () => ({ action: "decline" })))).toEqual({ action: "decline" });
  expect(await book()).toBe("no elicitation: the client cannot be asked");
});

test("typed answers become the schema's types, and a wrong one is one line saying what is expected", () => {
  const fields = fieldsOf({
    type: "object",
    properties: {
      n: { type: "integer", minimum: 1, maximum: 4 },
      x: { type: "number" },
      ok: { type: "boolean" },
      mail: { type: "string", format: "email" },
      tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, maxItems: 2 },
      who: { type: "string" },
    },
    required: ["who"],
  });
  const [n, x, ok, mail, tags, who] = fields;
  expect(parseFieldAnswer(n!, "3")).toEqual({ value: 3 });
  expect(parseFieldAnswer(n!, "2.5")).toEqual({ error: "n: must be a whole number" });
  expect(parseFieldAnswer(n!, "9")).toEqual({ error: "n: the number must be from 1 to 4" });
  expect(parseFieldAnswer(x!, "2.5")).toEqual({ value: 2.5 });
  expect(parseFieldAnswer(ok!, "yes")).toEqual({ value: true });
  expect(parseFieldAnswer(ok!, "maybe")).toEqual({ error: "ok: answer yes or no" });
  expect(parseFieldAnswer(mail!, "not-mail")).toEqual({ error: "mail: must be an email address" });
  expect(parseFieldAnswer(tags!, "a, c")).toEqual({ value: ["a", "c"] });
  expect(parseFieldAnswer(tags!, "a, d")).toEqual({ error: "tags: d is not one of a, b, c" });
  expect(parseFieldAnswer(tags!, "a, b, c")).toEqual({ error: "tags: the number of choices must be from … to 2" });
  expect(parseFieldAnswer(who!, "")).toEqual({ error: "who is required" });
  expect(parseFieldAnswer(x!, " ")).toEqual({ skip: true });
});

test("the form asks accept/decline/cancel, then each field in turn: empty keeps the default, a wrong answer is said and asked again, leaving cancels", async () => {
  const question: ElicitQuestion = {
    server: "booker",
    message: "Details",
    fields: fieldsOf({ type: "object", properties: { seats: { type: "integer", minimum: 1, maximum: 4, default: 2 }, name: { type: "string" } }, required: ["name"] }),
  };
  const script = (key: string, lines: (string | null)[]) => {
    const shown: string[] = [];
    return {
      shown,
      io: { show: (l: string[]) => shown.push(...l), askKey: async () => key, readLine: async () => (lines.length ? lines.shift()! : null) },
    };
  };
  const accepted = script("a", ["9", "", "", "Ada"]);
  expect(await askElicitation(question, accepted.io)).toEqual({ action: "accept", content: { name: "Ada" } });
  expect(accepted.shown).toEqual([
    'The MCP server "booker" asks: Details',
    "  seats (integer, 1 to 4, default 2)",
    "  name (text, required)",
    "seats: the number must be from 1 to 4",
    "name is required",
  ]);
  expect(await askElicitation(question, script("d", []).io)).toEqual({ action: "decline" });
  expect(await askElicitation(question, script("escape", []).io)).toEqual({ action: "cancel" });
  expect(await askElicitation(question, script("a", ["3", null]).io)).toEqual({ action: "cancel" });
});

test("a server's message, field titles and options reach the screen without escape sequences or control characters", async () => {
  const question: ElicitQuestion = {
    server: "evil",
    message: "Pay now\x1b]0;owned\x07\x1b[2J\rreally",
    fields: fieldsOf({ type: "object", properties: { plan: { type: "string", title: "Plan\x1b[31m", enum: ["a\x1b[8m"], description: "pick\x07" } } }),
  };
  const seen: string[] = [];
  let answers = 0;
  const io = { show: (l: string[]) => seen.push(...l), askKey: async (t: string) => (seen.push(t), "a"), readLine: async (label: string) => (seen.push(label), answers++ === 0 ? "z" : null) };
  expect(await askElicitation(question, io)).toEqual({ action: "cancel" });
  expect(seen.join("\n")).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
  expect(seen[0]).toBe('The MCP server "evil" asks: Pay now\nreally');
  expect(seen).toContain("  Plan (one of: a): pick ");
});
