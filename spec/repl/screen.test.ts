import { describe, expect, test } from "bun:test";
import { createScreen, type LiveView, type ScreenMode } from "../../cmd/repl/input/screen.ts";
import { createVt } from "./vt.ts";

/** A screen 20 columns wide writing into the terminal model, with everything it wrote. */
function setup(mode: ScreenMode) {
  const vt = createVt(20, 10);
  let raw = "";
  const screen = createScreen(
    {
      write(text: string) {
        const crlf = text.replace(/\n/g, "\r\n"); // what the tty's ONLCR does
        raw += crlf;
        vt.feed(crlf);
      },
      columns: 20,
      rows: 10,
    },
    mode,
  );
  return { screen, vt, raw: () => raw };
}

const input = (text: string, above: string[] = []): LiveView => ({ above, prompt: "› ", text, cursor: text.length, below: [] });

describe("the rich screen", () => {
  test("streamed text continues its line under a live view, and the view never lands in the transcript", () => {
    const { screen, vt } = setup("rich");
    screen.write("start\n");
    screen.setLive(input("typed", ["⠋ working"]));
    screen.write("Hello ");
    screen.write("world, and a long tail that wraps past twenty");
    expect(vt.cursorLine()).toBe("› typed");
    screen.write(" columns.\n");
    screen.setLive(input("typed more", ["⠙ working"]));
    screen.write("next line\n");
    screen.setLive(undefined);
    expect(vt.text()).toBe(["start", "Hello world, and a l", "ong tail that wraps", "past twenty columns.", "next line"].join("\n"));
  });

  test("a line ending exactly at the edge is continued correctly", () => {
    const { screen, vt } = setup("rich");
    screen.setLive(input(""));
    screen.write("x".repeat(20));
    screen.write("y\n");
    screen.setLive(undefined);
    expect(vt.text()).toBe(`${"x".repeat(20)}\ny`);
  });

  test("a long input wraps and the cursor sits at its end", () => {
    const { screen, vt } = setup("rich");
    screen.setLive(input("a".repeat(30)));
    expect(vt.text()).toBe(`› ${"a".repeat(18)}\n${"a".repeat(12)}`);
    expect(vt.cursorLine()).toBe("a".repeat(12));
  });
});

describe("the plain screen (TERM=dumb)", () => {
  test("no escape codes, and the input waits for the output line to end", () => {
    const { screen, vt, raw } = setup("plain");
    screen.setLive(input("typed"));
    screen.write("Hello ");
    expect(vt.cursorLine()).toBe("Hello");
    screen.write("world\n");
    expect(vt.cursorLine()).toBe("› typed");
    screen.setLive(input("typed a lot more than fits on the row"));
    expect(vt.cursorLine().length).toBeLessThanOrEqual(20);
    screen.setLive(undefined);
    expect(vt.text()).toBe("Hello world");
    expect(raw()).not.toContain("\x1b");
  });
});
