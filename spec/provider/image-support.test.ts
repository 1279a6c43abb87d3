// Whether the model takes images (lib/provider/image-support.ts): the config first, then the server, then the table.
import { describe, expect, test } from "bun:test";
import { imageSupport, isImageRefusal } from "../../lib/provider/image-support.ts";

const settings = (model: string, provider = "openai") => ({ model, provider });

describe("imageSupport", () => {
  test("the config's preset entry, then its models entry, then the server, then the table; unknown otherwise", () => {
    const server = { images: { takes: true, from: "ollama /api/show" } };
    const config = { models: { "gpt-4o": { images: false }, llava: { images: true } }, presets: { ollama: { models: { llava: { images: false } } } } };
    expect(imageSupport(settings("llava", "ollama"), config, server)).toEqual({ takes: false, from: "config presets.ollama.models" });
    expect(imageSupport(settings("llava"), config, {})).toEqual({ takes: true, from: "config models" });
    expect(imageSupport(settings("gpt-4o"), config, server)).toEqual({ takes: false, from: "config models" });
    expect(imageSupport(settings("qwen2.5vl"), {}, server)).toEqual({ takes: true, from: "ollama /api/show" });
    expect(imageSupport(settings("gpt-3.5-turbo"), {}, {})).toEqual({ takes: false, from: "built-in table" });
    expect(imageSupport(settings("openai/gpt-4o-2024-08-06"), {}, {})).toEqual({ takes: true, from: "built-in table" });
    expect(imageSupport(settings("anthropic/claude-sonnet-4"), {}, {})).toEqual({ takes: true, from: "built-in table" });
    expect(imageSupport(settings("o3-mini"), {}, {})).toEqual({ takes: false, from: "built-in table" });
    expect(imageSupport(settings("qwen2.5-coder:7b"), {}, {})).toEqual({ takes: undefined, from: "unknown" });
  });
});

describe("isImageRefusal", () => {
  const error = (statusCode: number, message: string) => Object.assign(new Error(message), { statusCode });
  test("a 400 about an image is one; another 400, or a 5xx that mentions images, is not", () => {
    expect(isImageRefusal(error(400, "Invalid content type. image_url is only supported by certain models."))).toBe(true);
    expect(isImageRefusal(error(400, "This model does not support vision input"))).toBe(true);
    expect(isImageRefusal(error(400, "image input is not supported"))).toBe(true);
    expect(isImageRefusal(error(400, "Unsupported parameter: 'reasoning_effort'"))).toBe(false);
    expect(isImageRefusal(error(400, "Invalid image_url."))).toBe(false);
    expect(isImageRefusal(error(500, "image processing failed"))).toBe(false);
    expect(isImageRefusal(undefined)).toBe(false);
  });
});
