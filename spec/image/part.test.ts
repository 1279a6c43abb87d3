// A prompt's image blocks become image parts of its user message (lib/image/part.ts).
import { expect, test } from "bun:test";
import { imageBlock, promptContent, storedImageOf } from "../../lib/image/part.ts";

const image = { ref: `${"a".repeat(64)}.png`, mediaType: "image/png" as const, name: "shot.png", width: 4, height: 3 };

test("the image blocks attachMentions added become image parts after the text, also with a hook's context after them", () => {
  const prompt = `look\n\n${imageBlock("shots/shot.png", image)}`;
  const content = promptContent(prompt) as unknown[];
  expect(content[0]).toEqual({ type: "text", text: prompt });
  expect(storedImageOf(content[1])).toEqual(image);
  const withContext = `${prompt}\n\n<hook-context>\nbranch main\n</hook-context>`;
  expect((promptContent(withContext) as unknown[]).map((p) => storedImageOf(p)?.ref)).toEqual([undefined, image.ref]);
});

test("a block quoted in the text before the attachments is text, and a prompt without images stays a string", () => {
  const quoted = `why does this fail:\n\n${imageBlock("x.png", image)}\n\nand then\n\n<attached path="a.ts" lines="1">\n     1\tx\n</attached>`;
  expect(promptContent(quoted)).toBe(quoted);
  expect(promptContent("just words")).toBe("just words");
});

test("an image in the history counts for about what a server bills for it, not for its reference's few characters", async () => {
  const { estimateTokens } = await import("../../lib/prune/tokens.ts");
  const { storedImagePart } = await import("../../lib/image/part.ts");
  const text = estimateTokens([{ role: "user", content: [{ type: "text", text: "look" }] }]);
  const withImage = estimateTokens([{ role: "user", content: [{ type: "text", text: "look" }, storedImagePart(image), storedImagePart(image)] }]);
  expect(withImage - text).toBeGreaterThan(2 * 1_500);
  expect(withImage - text).toBeLessThan(2 * 1_500 + 200);
});
