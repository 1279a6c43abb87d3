// Plan mode in the loop: shift-tab reaches it after auto, its turns run the plan variant (read-only
// tools, its prompt), and a finished plan is handed off to editing with one key: the variant from
// before, edits mode, and the plan as the next turn's instruction. Esc keeps planning.
import { expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { tempDir } from "../support/cli.ts";
import { join } from "node:path";
import { instructionsIn } from "../support/requests.ts";
import { KEYS, lastUserText, usePty } from "./pty.ts";

const { serve, start } = usePty();
const SHIFT_TAB = "\x1b[Z";
const PLAN = "1. In a.ts, rename sum to total.\n2. Run bun test: all green.";
const OFFER = "plan ready · enter accepts it";

/** The tool names a request offered, whichever wire. */
const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.name ?? t.function?.name).sort();
/** The status line: the screen's last row. */
const statusRow = (screen: string) => screen.split("\n").at(-1) ?? "";

test("shift-tab cycles ask → edits → auto → plan; the plan turn is read-only; enter accepts the plan: the next request carries it with every tool, in edits mode on the variant from before", async () => {
  const s = await serve({ text: PLAN }, { toolCalls: [{ name: "write_file", input: { path: "a.ts", content: "export const total = 1;\n" } }] }, { text: "renamed" });
  const pty = await start({ baseURL: s.url, args: ["--no-sandbox", "--agent", "deep"] });
  await pty.waitForPrompt(1);
  for (const mode of ["edits", "auto"]) {
    pty.write(SHIFT_TAB);
    await pty.waitUntil(`mode ${mode}`, () => statusRow(pty.screen()).includes(`mode ${mode}`));
  }
  pty.write(SHIFT_TAB);
  await pty.waitFor("mode plan: agent plan's read-only tools and prompt");
  await pty.waitUntil("the status line in plan mode", () => statusRow(pty.screen()).includes("mode plan"));
  expect(statusRow(pty.screen())).not.toContain("agent plan"); // said once, as the mode

  pty.line("rename sum to total");
  await pty.waitFor(OFFER);
  await pty.waitForPrompt(2);
  const planning = s.requests[0]!.body;
  expect(toolNames(planning)).not.toContain("write_file");
  expect(toolNames(planning)).not.toContain("bash");
  expect(instructionsIn(planning)).toContain("Mode: plan.");
  expect(pty.screen()).toContain("enter accepts it (agent deep, mode edits)");

  pty.write(KEYS.enter); // on the empty prompt: accepts
  await pty.waitFor("renamed");
  await pty.waitForPrompt(3);
  const handedOff = s.requests[1]!.body;
  expect(lastUserText(handedOff)).toContain("I accept the plan below. Carry it out now");
  expect(lastUserText(handedOff)).toContain(PLAN);
  expect(toolNames(handedOff)).toContain("write_file");
  expect(toolNames(handedOff)).toContain("bash");
  expect(instructionsIn(handedOff)).not.toContain("Mode: plan.");
  expect(instructionsIn(handedOff)).toContain("Mode: deep.");
  // Edits mode: the write ran without a question.
  expect(existsSync(join(pty.cwd, "a.ts"))).toBe(true);
  expect(pty.screen()).not.toContain("write_file wants to");
  expect(pty.screen()).toContain("plan mode off: agent deep again");
  expect(pty.screen()).toContain("› (plan accepted) carry out the plan above");
  expect(statusRow(pty.screen())).toContain("mode edits");
  expect(statusRow(pty.screen())).not.toContain("plan");
  expect(pty.screen()).not.toContain(OFFER + "\n›"); // the offer went with the hand-off
}, 30_000);

test("esc at the offer keeps plan mode: enter then accepts nothing, a prompt refines the plan read-only, shift-tab leaves plan mode", async () => {
  const s = await serve({ text: PLAN }, { text: "1. Rename in a.ts and b.ts.\n2. Run the tests." });
  const pty = await start({ baseURL: s.url, args: ["--no-sandbox"] });
  await pty.waitForPrompt(1);
  pty.line("/mode plan");
  await pty.waitUntil("plan mode", () => statusRow(pty.screen()).includes("mode plan"));
  pty.line("plan the rename");
  await pty.waitFor(OFFER);
  await pty.waitForPrompt(2);
  pty.write(KEYS.esc);
  await pty.waitFor("plan mode goes on");
  await pty.waitUntil("the offer gone", () => !pty.screen().includes(OFFER));
  pty.write(KEYS.enter); // an empty prompt with no offer: nothing is sent
  pty.line("also b.ts");
  await pty.waitFor("Rename in a.ts and b.ts");
  await pty.waitForPrompt(3);
  expect(s.requests).toHaveLength(2);
  expect(lastUserText(s.requests[1]!.body)).toBe("also b.ts");
  expect(toolNames(s.requests[1]!.body)).not.toContain("write_file");
  await pty.waitFor(OFFER); // the refined plan is offered in its turn
  pty.write(SHIFT_TAB);
  await pty.waitFor("plan mode off: agent default again");
  await pty.waitUntil("mode ask", () => statusRow(pty.screen()).includes("mode ask"));
  await pty.waitUntil("the offer gone", () => !pty.screen().includes(OFFER));
  pty.write(KEYS.enter);
  await Bun.sleep(300);
  expect(s.requests).toHaveLength(2); // nothing accepted after leaving plan mode
}, 30_000);

test("an enter typed ahead as the plan arrives accepts nothing; one after a quiet moment does, and sends the plan as written (no @path attached from it)", async () => {
  const plan = `${PLAN}\n3. Note it in @notes.md.`;
  const s = await serve({ text: plan }, { text: "done" });
  const cwd = tempDir("shiro-work-");
  writeFileSync(join(cwd, "notes.md"), "secret-ish notes\n");
  const pty = await start({ baseURL: s.url, cwd, args: ["--no-sandbox"], env: { SHIRO_ANSWER_QUIET_MS: "1500" } });
  await pty.waitForPrompt(1);
  pty.line("/mode plan");
  await pty.waitUntil("plan mode", () => statusRow(pty.screen()).includes("mode plan"));
  pty.line("plan it");
  await pty.waitFor(OFFER);
  pty.write(KEYS.enter); // at once: typing ahead, not an answer
  await Bun.sleep(1_700);
  expect(s.requests).toHaveLength(1);
  expect(pty.screen()).toContain(OFFER);
  pty.write(KEYS.enter);
  await pty.waitFor("done");
  expect(lastUserText(s.requests[1]!.body)).toEndWith(plan);
  expect(JSON.stringify(s.requests[1]!.body)).not.toContain("secret-ish notes");
  expect(pty.screen()).not.toContain("attached notes.md");
}, 30_000);

test("during a turn shift-tab skips plan (auto → ask) and does not leave plan mode: a turn keeps its variant from start to end", async () => {
  const s = await serve({ text: "slow answer one two three four", delayMs: 120 }, { text: `${PLAN}\nmore words to stream slowly`, delayMs: 120 });
  const pty = await start({ baseURL: s.url, args: ["--no-sandbox", "--mode", "auto"] });
  await pty.waitForPrompt(1);
  pty.line("a slow one");
  await pty.waitFor("slow answer"); // the turn is under way
  pty.write(SHIFT_TAB);
  await pty.waitFor("mode ask: edits and commands ask first");
  await pty.waitForPrompt(2);
  expect(pty.screen()).not.toContain("mode plan:");
  expect(statusRow(pty.screen())).toContain("mode ask");

  pty.line("/mode plan");
  await pty.waitUntil("plan mode", () => statusRow(pty.screen()).includes("mode plan"));
  pty.line("plan it slowly");
  await pty.waitFor("1. In a.ts");
  pty.write(SHIFT_TAB);
  await pty.waitFor("plan mode stays until this turn ends");
  await pty.waitFor(OFFER); // the turn ran as a plan turn to its end
  expect(statusRow(pty.screen())).toContain("mode plan");
  expect(instructionsIn(s.requests[1]!.body)).toContain("Mode: plan.");
}, 30_000);
