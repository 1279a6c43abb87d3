import { expect, test } from "bun:test";
import { ATTACH_MAX_LINES, attachedPaths, describeAttachment, withoutAttachments } from "../../lib/prompt/attach.ts";
import { resourceAttachment, resourceRefused } from "../../lib/prompt/attach-resource.ts";
import { resourceMentions } from "../../lib/app/mcp-attach.ts";

test("a long text resource is cut as an @path file is, with a note naming what was left out", () => {
  const text = Array.from({ length: ATTACH_MAX_LINES + 500 }, (_, i) => `line ${i + 1}`).join("\n");
  const { report, block } = resourceAttachment("docs:docs://big", [{ uri: "docs://big", mimeType: "text/plain", text }]);
  expect(describeAttachment(report)).toBe("attached docs:docs://big (text/plain, lines 1-2000 of 2500; the rest left out)");
  expect(block).toContain("line 2000\n\n[Showing lines 1-2000 of 2500 of docs://big; the rest is left out. mcp__docs__read_resource reads it.]");
  expect(block).not.toContain("line 2001");
  // Characters are bounded too (100,000): 200 lines of 1,000 characters keep the first 99.
  const wide = resourceAttachment("docs:docs://wide", [{ uri: "docs://wide", text: Array.from({ length: 200 }, () => "w".repeat(1_000)).join("\n") }]);
  expect(describeAttachment(wide.report)).toBe("attached docs:docs://wide (text, lines 1-99 of 200; the rest left out)");
});

test("a blob is its type and size, never its bytes; several parts are each labelled; the prompt as typed comes back", () => {
  const { report, block } = resourceAttachment("docs:docs://pair", [
    { uri: "docs://pair/a", mimeType: "text/plain", text: "hello" },
    { uri: "docs://pair/b", mimeType: "application/pdf", blob: Buffer.alloc(3000).toString("base64") },
  ]);
  expect(describeAttachment(report)).toBe("attached docs:docs://pair (2 parts: text/plain, 1 line; application/pdf, 2.9 KB, binary: its type and size only)");
  expect(block).toContain("[docs://pair/a]\nhello");
  expect(block).toContain("[binary resource docs://pair/b (application/pdf, 2.9 KB); its bytes are not sent, only this note]");
  expect(block).not.toContain("AAAA");
  const sent = `look at @docs:docs://pair\n\n${block}`;
  expect(withoutAttachments(sent)).toBe("look at @docs:docs://pair");
  expect(attachedPaths(sent)).toEqual(["docs:docs://pair"]);
  expect(describeAttachment(resourceRefused("docs:x://y", "gone"))).toBe("not attached: docs:x://y could not be read (gone); the prompt is sent without it");
});

test("only mentions of a configured server are resources, each once, without the punctuation after them", () => {
  expect(resourceMentions("see @docs:docs://a, @docs:docs://a and @other:x://b or me@docs:c (@docs:docs://c)", ["docs"])).toEqual([
    { server: "docs", uri: "docs://a", label: "docs:docs://a" },
    { server: "docs", uri: "docs://c", label: "docs:docs://c" },
  ]);
});
