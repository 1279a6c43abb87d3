import { expect, test } from "bun:test";
import { resultText } from "../../lib/mcp/result-text.ts";
import { mcpToolName } from "../../lib/mcp/tool-name.ts";

test("what a tool returns becomes text: text as it is, binary content as a note, links and embedded resources by their address", () => {
  const text = resultText({
    content: [
      { type: "text", text: "first" },
      { type: "audio", mimeType: "audio/wav", data: "AAAA" },
      { type: "resource", resource: { uri: "file:///notes.md", text: "# Notes" } },
      { type: "resource", resource: { uri: "file:///logo.png", mimeType: "image/png", blob: "AAAAAAAA" } },
      { type: "resource_link", uri: "https://example.com/a", name: "a", description: "the page" },
    ],
  });
  expect(text.split("\n")).toEqual([
    "first",
    "[audio (audio/wav, 3 bytes) returned by the tool; not shown here]",
    "[resource <file:///notes.md>]",
    "# Notes",
    "[resource <file:///logo.png> (image/png, 6 bytes); not shown here]",
    "[resource link: a <https://example.com/a> the page]",
  ]);
});

test("structured content is used only when there is no content", () => {
  expect(resultText({ content: [], structuredContent: { ok: true } })).toBe('{\n  "ok": true\n}');
  expect(resultText({ content: [{ type: "text", text: "said" }], structuredContent: { ok: true } })).toBe("said");
});

test("tool names keep to what providers accept and to 64 characters", () => {
  expect(mcpToolName("github", "search.issues")).toBe("mcp__github__search_issues");
  expect(mcpToolName("s", "x".repeat(100))).toHaveLength(64);
});
