// The fake checks image parts on both wires (validate-images.ts): good ones pass, malformed or misplaced ones and
// images for a model without them get a 400, are recorded in `errors`, and consume no scripted reply.
import { afterEach, describe, expect, test } from "bun:test";
import { startFakeServer } from "../fake-openai.ts";
import { pngOf } from "../images.ts";
import { post } from "./testing.ts";
import type { FakeServer } from "./types.ts";

let server: FakeServer;
afterEach(() => server?.close());

const png = `data:image/png;base64,${Buffer.from(pngOf(4, 4)).toString("base64")}`;

async function answer(path: string, body: Record<string, unknown>): Promise<{ status: number; message?: string; errors: string[] }> {
  server.push({ text: "ok" });
  const res = await post(server, path, { model: "gpt-test", stream: true, ...body });
  return { status: res.status, ...(res.status !== 200 ? { message: res.json.error.message } : {}), errors: server.errors };
}

describe("image parts over chat", () => {
  const chat = (messages: unknown[]) => answer("/chat/completions", { messages });
  const image = (url: string) => ({ type: "image_url", image_url: { url } });

  test("a PNG data URL in a user message is accepted", async () => {
    server = await startFakeServer();
    expect(await chat([{ role: "user", content: [{ type: "text", text: "see" }, image(png)] }])).toEqual({ status: 200, errors: [] });
  });

  test("an image in a tool message is refused: Chat Completions takes images from users only", async () => {
    server = await startFakeServer();
    const got = await chat([
      { role: "user", content: "read it" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_1", content: [image(png)] },
    ]);
    expect(got.status).toBe(400);
    expect(got.message).toContain("Image URLs are only allowed for messages with role 'user'");
  });

  test("a data URL whose bytes are not the type it names, bad base64, or no image type are refused", async () => {
    server = await startFakeServer();
    const jpegNamed = png.replace("image/png", "image/jpeg");
    for (const url of [jpegNamed, "data:image/png;base64,abc", "data:text/plain;base64,aGVsbG8=", "shot.png"]) {
      const got = await chat([{ role: "user", content: [image(url)] }]);
      expect(got.status).toBe(400);
      expect(got.message).toBe("Invalid image_url.");
    }
    expect(server.errors).toHaveLength(4);
    expect(server.pending()).toBe(4);
  });

  test("a model configured without images gets OpenAI's refusal", async () => {
    server = await startFakeServer({ models: { "gpt-test": { contextWindow: 100_000, images: false } } });
    const got = await chat([{ role: "user", content: [image(png)] }]);
    expect(got.status).toBe(400);
    expect(got.message).toBe("Invalid content type. image_url is only supported by certain models.");
  });
});

describe("image parts over responses", () => {
  const call = { type: "function_call", call_id: "call_1", name: "read_file", arguments: "{}" };

  test("input_image in a user message and in a function_call_output array are accepted", async () => {
    server = await startFakeServer();
    const got = await answer("/responses", {
      input: [
        { role: "user", content: [{ type: "input_text", text: "see" }, { type: "input_image", image_url: png }] },
        call,
        { type: "function_call_output", call_id: "call_1", output: [{ type: "input_text", text: "it" }, { type: "input_image", image_url: png }] },
      ],
    });
    expect(got).toEqual({ status: 200, errors: [] });
  });

  test("input_image in an assistant message, or a broken one in a tool output, is refused", async () => {
    server = await startFakeServer();
    const inAssistant = await answer("/responses", { input: [{ role: "assistant", content: [{ type: "input_image", image_url: png }] }, { role: "user", content: "hi" }] });
    expect(inAssistant.status).toBe(400);
    const broken = await answer("/responses", {
      input: [{ role: "user", content: "read" }, call, { type: "function_call_output", call_id: "call_1", output: [{ type: "input_image", image_url: "data:image/png;base64,////" }] }],
    });
    expect(broken.status).toBe(400);
    expect(broken.message).toBe("Invalid image_url.");
    expect(server.pending()).toBe(2);
  });
});
