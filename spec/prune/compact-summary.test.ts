import { describe, expect, test } from "bun:test";
import { COMPACT_SECTIONS, COMPACT_SUMMARY_INTRO, applyCompactSummary, buildCompactPrompt, transcriptForSummary } from "../../lib/prune/compact-summary.ts";
import { validateHistory } from "../../lib/prune/validate.ts";
import { deepFreeze, longToolLoop } from "./fixtures.ts";

const GOOD = `## Goal
Fix the pagination test that fails on the last page.

## Files touched
- src/pagination.ts: the last-page bound is now offset + pageSize - 1.

## Decisions
Kept the public API; fixed the bound instead of clamping in the caller.

## Commands and outcomes
- bun test → exit 1, 3 failures, then exit 0 after the fix.

## What remains
Add a regression test for an empty last page.`;

describe("buildCompactPrompt", () => {
  test("asks for the five sections and carries the transcript as plain text", () => {
    const history = deepFreeze(longToolLoop({ steps: 20 }));
    const prompt = buildCompactPrompt(history);
    for (const section of COMPACT_SECTIONS) expect(prompt.instructions).toContain(`## ${section}`);
    expect(prompt.messages).toHaveLength(1);
    const text = prompt.messages[0]!.content as string;
    expect(text).toContain("The pagination test fails on the last page.");
    expect(text).toContain("> read_file ");
    expect(text).toContain("Fixed: the last page used an off-by-one bound.");
    expect(text).not.toContain("thinking about what to check next"); // reasoning is left out
    expect(validateHistory(prompt.messages)).toEqual([]); // nothing that could break on the wire
  });

  test("a long session is cut to the budget, keeping the first request and the latest work", () => {
    const history = longToolLoop({ steps: 300, outputChars: 3000 });
    const text = transcriptForSummary(history, { maxTranscriptChars: 20_000 });
    expect(text.length).toBeLessThanOrEqual(20_000);
    expect(text).toStartWith("[user]\nThe pagination test fails on the last page.");
    expect(text).toMatch(/\[… \d+ earlier entries omitted to fit …\]/);
    expect(text).toEndWith("Fixed: the last page used an off-by-one bound.");
  });

  test("deterministic", () => {
    const history = longToolLoop({ steps: 30 });
    expect(transcriptForSummary(history)).toBe(transcriptForSummary(history));
  });
});

describe("applyCompactSummary", () => {
  test("a usable summary becomes the one message that replaces the transcript", () => {
    const messages = applyCompactSummary(GOOD)!;
    expect(messages).toEqual([{ role: "user", content: `${COMPACT_SUMMARY_INTRO}\n\n${GOOD}` }]);
  });

  test("accepts bold or numbered headings and a fenced reply", () => {
    const bold = GOOD.replace(/^## (.*)$/gm, "**$1**");
    expect(applyCompactSummary(bold)).toBeDefined();
    const numbered = GOOD.replace(/^## /gm, "1. ");
    expect(applyCompactSummary(numbered)).toBeDefined();
    expect(applyCompactSummary("```markdown\n" + GOOD + "\n```")![0]!.content).toBe(`${COMPACT_SUMMARY_INTRO}\n\n${GOOD}`);
  });

  test("rejects what would destroy history for nothing: empty, short, refusals, missing sections", () => {
    for (const bad of [undefined, null, "", "   \n ", "ok", "I'm sorry, but I can't help with summarising this conversation right now.", "## Goal\nFix it.\n\nThat is all I can say about this session."]) {
      expect(applyCompactSummary(bad)).toBeUndefined();
    }
  });

  test("the threshold of sections is an option", () => {
    const twoSections = "## Goal\nFix the pagination test.\n\n## What remains\nA regression test for the empty page.";
    expect(applyCompactSummary(twoSections)).toBeUndefined();
    expect(applyCompactSummary(twoSections, { minSections: 2 })).toBeDefined();
  });
});
