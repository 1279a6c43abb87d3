import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { toolOutputsIn, WIRES } from "../support/requests.ts";
import { KEYS, userTexts, usePty } from "./pty.ts";
import { INTERRUPTION_NOTE } from "../../lib/text/interruption.ts";

const { serve, start } = usePty();
const WORK = "Change two to TWO in a.txt, then create c.txt.";

for (const { wire, flags } of WIRES) {
  describe(`subagents in the loop over ${wire}`, () => {
    test("a worker's edit asks the user, marked as the subagent's; y runs it, n refuses the next; /cost shows the subagent apart", async () => {
      const cwd = tempDir("shiro-work-");
      writeFileSync(join(cwd, "a.txt"), "one\ntwo\n");
      const s = await serve(
        { toolCalls: [{ name: "task", input: { kind: "worker", description: "apply the two edits", prompt: WORK } }] },
        { toolCalls: [{ name: "edit_file", input: { path: "a.txt", oldString: "two", newString: "TWO" } }], when: { firstUser: WORK }, usage: { input: 5000, output: 50 } },
        { toolCalls: [{ name: "write_file", input: { path: "c.txt", content: "x" } }], when: { firstUser: WORK }, usage: { input: 5000, output: 50 } },
        { text: "Edited a.txt:2; c.txt was refused.", when: { firstUser: WORK }, usage: { input: 5000, output: 50 } },
        { text: "The worker is done." },
      );
      const pty = await start({ baseURL: s.url, cwd, args: [...flags] });
      await pty.waitForPrompt(1);
      pty.line("do the edits");

      await pty.waitFor("edit_file wants to edit: a.txt  +1 -1");
      await pty.waitFor("asked by a subagent: worker · apply the two edits");
      await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow? y once"));
      pty.write("y");
      await pty.waitFor("allowed once");
      await pty.waitFor("write_file wants to write: c.txt (new file)");
      await pty.waitUntil("the second question", () => pty.cursorLine().startsWith("allow?"));
      pty.write("n");
      await pty.waitFor("what should shiro do instead?");
      pty.write(KEYS.enter);
      await pty.waitFor("The worker is done.");
      await pty.waitFor("↳ worker · apply the two edits · ✓ done · 3 steps · 15,150 tokens · 1 call refused");
      expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\nTWO\n");
      expect(existsSync(join(cwd, "c.txt"))).toBe(false);
      const subRequests = s.requests.filter((r) => userTexts(r.body)[0] === WORK);
      expect(toolOutputsIn(subRequests[2]!.body).join("\n")).toContain("The user declined this write_file call");
      expect(toolOutputsIn(s.requests.at(-1)!.body)).toEqual(["Edited a.txt:2; c.txt was refused."]);

      await pty.waitForPrompt(2);
      pty.line("/cost");
      await pty.waitFor("of which subagents (1 run): 15,000 in · 150 out");
    }, 30_000);

    test("a worker waiting on the user's answer keeps its live line, saying so; answered, the line is back to its step and ctrl-c stops it as the spinner says", async () => {
      const cwd = tempDir("shiro-work-");
      writeFileSync(join(cwd, "a.txt"), "one\ntwo\n");
      const s = await serve(
        { toolCalls: [{ name: "task", input: { kind: "worker", description: "apply the edit", prompt: WORK } }] },
        { toolCalls: [{ name: "edit_file", input: { path: "a.txt", oldString: "two", newString: "TWO" } }], when: { firstUser: WORK } },
        { fault: "hang", when: { firstUser: WORK } },
        { text: "The worker was stopped." },
      );
      const pty = await start({ baseURL: s.url, cwd, args: [...flags] });
      await pty.waitForPrompt(1);
      pty.line("do the edit");
      await pty.waitUntil("the question", () => pty.cursorLine().startsWith("allow? y once"));
      // Over the question: the worker's live line, marked as the one waiting.
      await pty.waitFor("↳ worker · apply the edit · step 1 · edit_file a.txt · waiting for your answer");
      pty.write("y");
      await pty.waitFor("allowed once");
      await pty.waitFor("↳ worker · apply the edit · step 2 · edit_file a.txt");
      await pty.waitUntil("the worker's second request", () => s.requests.filter((r) => userTexts(r.body)[0] === WORK).length === 2);
      await pty.waitFor(/running a subagent · (\d+s · )?ctrl-c stops the subagent · esc to interrupt/);
      expect(pty.screen()).not.toContain("waiting for your answer");
      expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\nTWO\n");
      // What the spinner says: ctrl-c stops the subagent, and the turn goes on.
      pty.write(KEYS.ctrlC);
      await pty.waitFor("^C stopping task; the turn goes on");
      await pty.waitFor("The worker was stopped.");
      expect(pty.screen()).toContain("↳ worker · apply the edit · ■ interrupted");
    }, 30_000);

    test("a subagent's call of a tool it lacks gets an error naming its tools; the live line shows it failing, the end line counts it", async () => {
      const cwd = tempDir("shiro-work-");
      const TIDY = "Tidy up the imports.";
      const s = await serve(
        { toolCalls: [{ name: "task", input: { description: "tidy up", prompt: TIDY } }] },
        { toolCalls: [{ name: "bash", input: { command: "ls" } }], when: { firstUser: TIDY } },
        { fault: "hang", when: { firstUser: TIDY } },
      );
      const pty = await start({ baseURL: s.url, cwd, args: [...flags] });
      await pty.waitForPrompt(1);
      pty.line("tidy up");
      await pty.waitFor('↳ explore · tidy up · step 2 · ✗ bash failed: There is no tool named "bash" here.');
      await pty.waitUntil("the subagent's second request", () => s.requests.filter((r) => userTexts(r.body)[0] === TIDY).length === 2);
      const [sent] = toolOutputsIn(s.requests.filter((r) => userTexts(r.body)[0] === TIDY)[1]!.body);
      expect(JSON.parse(sent!)).toEqual({ error: 'There is no tool named "bash" here. The tools available are: read_file, glob, grep, list_dir, git. Use one of them, or answer in text.' });
      pty.write(KEYS.esc);
      await pty.waitFor(/↳ explore · tidy up · ■ interrupted · 2 steps · [\d,]+ tokens · 1 call failed/);
    }, 30_000);

    test("esc while parallel subagents run stops them all; the next prompt goes out on a valid history", async () => {
      const cwd = tempDir("shiro-work-");
      const prompts = ["Search the A side.", "Search the B side."];
      const s = await serve(
        { toolCalls: [{ name: "task", input: { tasks: prompts.map((prompt, i) => ({ description: `search side ${"AB"[i]}`, prompt })) } }] },
        { toolCalls: [{ name: "grep", input: { pattern: "offset" } }], when: { firstUser: prompts[0] } },
        ...prompts.map((prompt) => ({ fault: "hang" as const, when: { firstUser: prompt } })),
        { text: "carried on after esc" },
      );
      const pty = await start({ baseURL: s.url, cwd, args: [...flags] });
      await pty.waitForPrompt(1);
      pty.line("search both sides");
      // One live line per running subagent: its step, and the last call it made.
      await pty.waitFor("↳ explore · search side A · step 2 · grep offset");
      await pty.waitFor("↳ explore · search side B · step 1");
      await pty.waitUntil("both subagents waiting on the server", () => s.requests.length === 4);
      // What the spinner says: esc interrupts (the whole turn), ctrl-c would stop the subagents only.
      await pty.waitFor(/running 2 subagents · (\d+s · )?ctrl-c stops the subagents · esc to interrupt/);
      pty.write(KEYS.esc);
      await pty.waitFor("↳ explore · search side A · ■ interrupted");
      await pty.waitFor("↳ explore · search side B · ■ interrupted");
      await pty.waitForPrompt(2);
      pty.line("again");
      await pty.waitFor("carried on after esc");
      const last = s.requests.at(-1)!.body;
      expect(userTexts(last)).toEqual(["search both sides", INTERRUPTION_NOTE, "again"]);
    }, 30_000);

    test("ctrl-c while a subagent runs stops that task call only: the parent reads that it was interrupted and goes on", async () => {
      const cwd = tempDir("shiro-work-");
      const s = await serve(
        { toolCalls: [{ name: "task", input: { description: "slow search", prompt: "Search slowly." } }] },
        { fault: "hang", when: { firstUser: "Search slowly." } },
        { text: "I will search myself then." },
      );
      const pty = await start({ baseURL: s.url, cwd, args: [...flags] });
      await pty.waitForPrompt(1);
      pty.line("search");
      await pty.waitFor("↳ explore · slow search · step 1");
      await pty.waitUntil("the subagent waiting on the server", () => s.requests.length === 2);
      await pty.waitFor(/running a subagent · (\d+s · )?ctrl-c stops the subagent · esc to interrupt/);
      pty.write(KEYS.ctrlC);
      await pty.waitFor("^C stopping task; the turn goes on");
      await pty.waitFor("I will search myself then.");
      expect(pty.screen()).toContain("↳ explore · slow search · ■ interrupted");
      expect(toolOutputsIn(s.requests.at(-1)!.body)).toEqual(["Subagent was interrupted after 1 step, before it finished."]);
    }, 30_000);
  });
}
