import { describe, expect, test } from "bun:test";
import { WIRES } from "../support/requests.ts";
import { KEYS, usePty, userTexts, type Pty } from "./pty.ts";
import { INTERRUPTION_NOTE } from "../../lib/text/interruption.ts";

const { serve, start } = usePty();

const CTX = /ctx ~([\d.]+)([kM]?)\/1M/;

/** The status line's `ctx ~3.2k/1M` read back once the prompt waits, in tokens (to a tenth of a thousand). */
async function ctxShown(pty: Pty): Promise<number> {
  const status = () => pty.screen().split("\n").at(-1)!;
  await pty.waitUntil("the status line under the input", () => CTX.test(status()));
  const m = CTX.exec(status())!;
  return Number(m[1]) * (m[2] === "k" ? 1000 : m[2] === "M" ? 1_000_000 : 1);
}

/** The size of what a captured request carried (its instructions, tools and messages) by the estimate shiro uses: JSON length / 4. */
function carried(body: any): number {
  const { instructions, tools, input, messages } = body;
  return JSON.stringify({ instructions, tools, input, messages }).length / 4;
}

/** The figure on the status line is an estimate of a request in shiro's own form: within a fifth of what crossed the wire. */
function expectNear(shown: number, sent: number): void {
  expect(shown).toBeGreaterThan(sent * 0.8);
  expect(shown).toBeLessThan(sent * 1.2);
}

for (const { wire, flags } of WIRES) {
  describe(`the status line's ctx over ${wire}`, () => {
    test("after an interrupted turn and after /undo, ctx is the size of the request the next prompt sends", async () => {
      const s = await serve(
        { text: "the first answer" },
        { text: "partial " + "words ".repeat(1000), delayMs: 10 },
        { text: "the third answer" },
        { text: "the fourth answer" },
      );
      const pty = await start({ baseURL: s.url, args: [...flags] });
      await pty.waitForPrompt(1);
      pty.line("first");
      await pty.waitFor("the first answer");
      await pty.waitForPrompt(2);
      const afterFirst = await ctxShown(pty);

      pty.line("second, interrupted");
      await pty.waitFor("words", { count: 150 }); // a partial answer of some size: a few hundred tokens
      pty.write(KEYS.esc);
      await pty.waitFor("interrupted");
      await pty.waitForPrompt(3);
      const afterInterrupt = await ctxShown(pty);
      expectNear(afterFirst, carried(s.requests[1]!.body));
      // The partial answer stays in the conversation: the next request is bigger, not smaller.
      expect(afterInterrupt).toBeGreaterThan(afterFirst);

      pty.line("third");
      await pty.waitFor("the third answer");
      expect(userTexts(s.requests[2]!.body)).toEqual(["first", "second, interrupted", INTERRUPTION_NOTE, "third"]);
      expectNear(afterInterrupt, carried(s.requests[2]!.body));
      await pty.waitForPrompt(4);

      pty.line("/undo");
      await pty.waitForInput("third");
      // The conversation is back to what it was after the interrupt, and so is ctx.
      expect(await ctxShown(pty)).toBe(afterInterrupt);

      pty.write("\x15"); // ctrl-u: the undone prompt out of the input
      pty.line("fourth");
      await pty.waitFor("the fourth answer");
      expect(userTexts(s.requests[3]!.body)).toEqual(["first", "second, interrupted", INTERRUPTION_NOTE, "fourth"]);
      expectNear(afterInterrupt, carried(s.requests[3]!.body));
    }, 40_000);
  });
}
