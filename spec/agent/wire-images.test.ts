// What a request carries for the history's images (lib/agent/wire-images.ts): the bytes where the wire allows them,
// the newest few only, a line for each image left out, and never a change to the history itself.
import { describe, expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { IMAGES_KEPT_ON_WIRE, imagesOnWire, type WireImages } from "../../lib/agent/wire-images.ts";
import { storedImagePart, type StoredImage } from "../../lib/image/part.ts";

const image = (n: number): StoredImage => ({ ref: `${String(n).padStart(64, "0")}.png`, mediaType: "image/png", name: `shot${n}.png`, width: 10, height: 5 });
const user = (n: number): ModelMessage => ({ role: "user", content: [{ type: "text", text: `look ${n}` }, storedImagePart(image(n))] });

function images(api: "chat" | "responses", takes: boolean | undefined = true, stored = (ref: string): string | undefined => `b64-of-${ref.slice(62, 64)}`): WireImages {
  return { api, model: "m", takes: () => takes, from: () => "test", store: { put: () => "", base64: (ref) => stored(ref) } };
}

const readFile = (n: number): ModelMessage[] => [
  { role: "assistant", content: [{ type: "tool-call", toolCallId: `c${n}`, toolName: "read_file", input: { path: `shot${n}.png` } }] },
  { role: "tool", content: [{ type: "tool-result", toolCallId: `c${n}`, toolName: "read_file", output: { type: "content", value: [{ type: "text", text: `shot${n}.png: PNG image` }, storedImagePart(image(n))] } }] },
];

describe("imagesOnWire", () => {
  test("a user message's image is sent as its bytes, in place; the history is not changed", () => {
    const history = [user(1)];
    const before = JSON.stringify(history);
    const { messages, sent } = imagesOnWire(history, images("responses"));
    expect(sent).toBe(1);
    expect(messages[0]!.content).toEqual([{ type: "text", text: "look 1" }, { type: "file", mediaType: "image/png", filename: "shot1.png", data: { type: "data", data: "b64-of-01" } }]);
    expect(JSON.stringify(history)).toBe(before);
  });

  test(`only the ${IMAGES_KEPT_ON_WIRE} newest images go in full; older ones become a line that says how to see them again`, () => {
    const history = [1, 2, 3, 4, 5, 6].map(user);
    const { messages, sent } = imagesOnWire(history, images("responses"));
    expect(sent).toBe(IMAGES_KEPT_ON_WIRE);
    const second = (messages[1]!.content as any[])[1];
    expect(second).toEqual({ type: "text", text: "[image shot2.png (10×5) was shown earlier; left out of this request to keep it small. Ask for it again (read_file, or the user attaches it) if you need to see it.]" });
    expect((messages[2]!.content as any[])[1].type).toBe("file");
  });

  test("a model that takes no images, or a request made without them (a subagent's), gets a line instead", () => {
    expect((imagesOnWire([user(1)], images("chat", false)).messages[0]!.content as any[])[1]).toEqual({ type: "text", text: "[image shot1.png (10×5) not sent: m does not take images]" });
    expect((imagesOnWire([user(1)], undefined).messages[0]!.content as any[])[1]).toEqual({ type: "text", text: "[image shot1.png (10×5) not sent: images are not sent here]" });
  });

  test("an image gone from the store is a line, not a broken request", () => {
    const { messages, sent } = imagesOnWire([user(1)], images("responses", true, () => undefined));
    expect(sent).toBe(0);
    expect((messages[0]!.content as any[])[1]).toEqual({ type: "text", text: "[image shot1.png (10×5) is no longer stored, so it cannot be shown again]" });
  });

  test("responses: a tool's image stays in its output, as content", () => {
    const { messages } = imagesOnWire([{ role: "user", content: "go" }, ...readFile(1)], images("responses"));
    expect(messages).toHaveLength(3);
    expect((messages[2]!.content as any[])[0].output).toEqual({ type: "content", value: [{ type: "text", text: "shot1.png: PNG image" }, { type: "file", mediaType: "image/png", filename: "shot1.png", data: { type: "data", data: "b64-of-01" } }] });
  });

  test("chat: a tool's output is text, and its image follows in one user message after the tool messages", () => {
    const { messages } = imagesOnWire([{ role: "user", content: "go" }, ...readFile(1), { role: "assistant", content: "seen" }], images("chat"));
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user", "assistant"]);
    expect((messages[2]!.content as any[])[0].output).toEqual({ type: "text", value: "shot1.png: PNG image\n[the image is in the user message after the tool results]" });
    expect(messages[3]!.content).toEqual([
      { type: "text", text: "The image that read_file (call c1) returned:" },
      { type: "file", mediaType: "image/png", filename: "shot1.png", data: { type: "data", data: "b64-of-01" } },
    ]);
  });

  test("a history without images is returned as it is", () => {
    const history: ModelMessage[] = [{ role: "user", content: "hi" }];
    expect(imagesOnWire(history, images("chat")).messages).toBe(history);
  });
});
