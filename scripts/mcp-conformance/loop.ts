/**
 * One turn of shiro's interactive loop in a pseudo-terminal, for the scenarios headless cannot
 * show: headless does not declare elicitation, so a server's question (`elicitation/create`) is
 * asked only in the loop. Starts shiro, waits for the server to connect (`/mcp`), sends the
 * prompt, answers every question the server asks with "a" (accept) and Enter on each field (its
 * default), waits for the model's closing "done" and leaves with ctrl-d. Reads the screen through
 * the same terminal model as the loop's specs (spec/repl/vt.ts).
 */
import { createVt } from "../../spec/repl/vt.ts";

const STATUS_LINE = /ctx ~[\d.]+[kM]?\/[\d.]+[kM]?/;
const ANSWER_IT = /Answer it\? a accept/;
const FIELD_ROW = /^[^›].*:\s*$/;
const WAIT_MS = 20_000;

export async function loopTurn(bin: string, env: Record<string, string>, cwd: string, prompt: string): Promise<{ code: number; said: string }> {
  const vt = createVt(120, 40);
  const decoder = new TextDecoder();
  const listeners = new Set<() => void>();
  const proc = Bun.spawn([bin], {
    cwd,
    env,
    terminal: {
      cols: 120,
      rows: 40,
      data(_terminal, data) {
        vt.feed(decoder.decode(data, { stream: true }));
        for (const listener of [...listeners]) listener();
      },
    },
  });
  const until = (what: string, check: () => boolean, timeoutMs = WAIT_MS) =>
    new Promise<void>((resolve, reject) => {
      const listener = () => {
        if (!check()) return;
        listeners.delete(listener);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        listeners.delete(listener);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      listeners.add(listener);
      listener();
    });
  // Counted, not sliced: the live area at the bottom of the screen is redrawn in place.
  const count = (pattern: RegExp) => (vt.text().match(new RegExp(pattern.source, pattern.flags + "g")) ?? []).length;
  const atPrompt = () => STATUS_LINE.test(vt.text().split("\n").at(-1) ?? "") && vt.cursorLine().startsWith("›");
  const write = (keys: string) => void proc.terminal!.write(keys);
  try {
    await until("the loop's prompt", atPrompt);
    for (let tries = 0; ; tries++) {
      write("/mcp\r");
      try {
        await until("conf to connect", () => count(/conf \(http, from config\): connected/) > 0, 1_000);
        break;
      } catch (error) {
        if (tries >= 20 || /conf \(http, from config\): failed/.test(vt.text())) throw error;
      }
    }
    write(`${prompt}\r`);
    const done = () => count(/^done$/m) > 0;
    let asked = 0;
    while (!done()) {
      // Either the model's answer or the server's next question comes first.
      await until("the server's question or the model's answer", () => done() || count(ANSWER_IT) > asked);
      if (done()) break;
      asked++;
      write("a");
      // Each field in turn: Enter takes its default. The field's row ends with a colon
      // ("name (text, default John Doe): User name: ").
      for (;;) {
        await until("the next field or the end of the question", () => FIELD_ROW.test(vt.cursorLine()) || done() || atPrompt());
        if (!FIELD_ROW.test(vt.cursorLine())) break;
        const row = vt.cursorLine();
        write("\r");
        await until("the field's answer to be taken", () => vt.cursorLine() !== row);
      }
    }
    await until("the prompt after the turn", atPrompt);
    write("\x04");
    const code = await Promise.race([proc.exited, Bun.sleep(10_000).then(() => undefined)]);
    if (code === undefined) throw new Error("shiro did not exit within 10 s of ctrl-d");
    return { code, said: vt.text() };
  } catch (error) {
    proc.kill("SIGKILL");
    await proc.exited;
    return { code: 1, said: `${error instanceof Error ? error.message : String(error)}; the screen:\n${vt.text().slice(-3000)}` };
  }
}
