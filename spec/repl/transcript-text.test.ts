// The transcript view's text (ctrl-o, /transcript) goes to the terminal as it is (the built-in
// pager writes its rows raw): whatever a record holds from outside (a provider's error body in a
// notice, a server's tool name, a command's output) reaches it without escape sequences.
import { expect, test } from "bun:test";
import { transcriptLines } from "../../cmd/repl/transcript-text.ts";

test("notices, marks, tool names and outputs are shown without escape sequences or control characters", () => {
  const lines = transcriptLines({
    skipped: 0,
    dropped: 0,
    records: [
      { type: "notice", text: "note: retrying: \x1b]0;owned\x07the server said \x1b[2Jno\nsecond line" },
      { type: "mark", text: "rewound\x1b[31m" },
      { type: "call", id: "c1", tool: "mcp__x__t\x1b[8m", input: { a: "b" } },
      { type: "result", id: "c1", tool: "mcp__x__t\x1b[8m", summary: "ok", outcome: "ok", output: "out\x1b[1mput\x07" },
    ],
  });
  expect(lines.join("\n")).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
  expect(lines).toContain("· note: retrying: the server said no");
  expect(lines).toContain("  second line");
  expect(lines).toContain("── rewound ──");
});

test("/last without a transcript shows the screen's copy cleaned the same way", async () => {
  const { lastShown } = await import("../../cmd/repl/transcript-text.ts");
  const shown = lastShown([], { title: "mcp__x__t\x1b[8m · error", text: "boom\x1b]0;owned\x07\x1b[2J done" });
  expect(shown).toEqual({ title: "mcp__x__t · error", text: "boom done" });
  expect(lastShown([], undefined)).toBeUndefined();
});
