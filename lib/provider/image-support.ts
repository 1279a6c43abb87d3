import type { Settings } from "../config/resolve.ts";
import type { ConfigFile } from "../config/schema.ts";
import type { PresetName } from "../config/presets.ts";
import type { ContextWindowInfo } from "./context-window.ts";

/** Whether the model takes images (undefined: nothing says), and where that came from, in words. */
export type ImageSupport = { takes: boolean | undefined; from: string };

/**
 * Hosted models whose input is published, matched as builtInLimits matches (lower-cased, without
 * a vendor prefix or a date). First match wins, so the text-only members of a family come first.
 */
const KNOWN: readonly { match: RegExp; takes: boolean }[] = [
  { match: /^gpt-3\.5/, takes: false },
  { match: /^gpt-4(-\d{4})?$|^gpt-4-32k/, takes: false },
  { match: /^gpt-oss-/, takes: false },
  { match: /^(o1-mini|o1-preview|o3-mini)/, takes: false },
  { match: /^(deepseek-|grok-code-fast|devstral-)/, takes: false },
  { match: /^(gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-5|o1|o3|o4-mini|claude-|gemini-)/, takes: true },
];

/**
 * Whether the model in use takes images, from the first source that says: the config's
 * `presets.<provider>.models["<id>"].images`, then `models["<id>"].images`; what the server's
 * metadata said, read with the window (model-metadata.ts: OpenRouter's input_modalities, ollama's
 * capabilities, LM Studio's type, llama.cpp's modalities) or a refusal of an image it remembers;
 * the built-in table of hosted models; else unknown (an image is then sent, and a refusal read).
 * Pure.
 */
export function imageSupport(settings: Pick<Settings, "provider" | "model">, config: Pick<ConfigFile, "models" | "presets">, window: Pick<ContextWindowInfo, "images">): ImageSupport {
  const id = settings.model;
  const preset = config.presets?.[settings.provider as PresetName]?.models?.[id]?.images;
  if (preset !== undefined) return { takes: preset, from: `config presets.${settings.provider}.models` };
  const entry = config.models?.[id]?.images;
  if (entry !== undefined) return { takes: entry, from: "config models" };
  if (window.images !== undefined) return window.images;
  const bare = id.toLowerCase().replace(/^[\w.-]+\//, "");
  const known = KNOWN.find((k) => k.match.test(bare));
  if (known) return { takes: known.takes, from: "built-in table" };
  return { takes: undefined, from: "unknown" };
}

/**
 * The one line a prompt with an image gets when the model does not take images: before anything
 * is sent when shiro knows it, and in place of the server's refusal when it did not.
 */
export function noImagesLine(model: string, from: string): string {
  return `${model} does not take images (${from}): switch to a model that does (/model, --model), or send the prompt without the image`;
}

/**
 * Whether a provider error is a refusal of the images in the request: a 400 whose message is
 * about images not being taken (OpenAI: "image_url is only supported by certain models"; vLLM and
 * llama.cpp: "… does not support image input", "image input is not supported"); not one about a
 * broken image ("Invalid image_url."), which says nothing about the model. Reads the server's words
 * only to choose this line over the generic one; nothing is decided for security from them.
 */
export function isImageRefusal(error: unknown): boolean {
  const e = error as { statusCode?: unknown; message?: unknown; responseBody?: unknown } | undefined;
  if (e?.statusCode !== 400) return false;
  const text = `${typeof e.message === "string" ? e.message : ""} ${typeof e.responseBody === "string" ? e.responseBody : ""}`;
  // About images, and saying they are not taken: "Invalid image_url." (a broken image) is not a refusal of images.
  return /image|vision|multimodal|modalit/i.test(text) && /support|not (allowed|enabled|accepted)|only|cannot|can't|unable|does ?n[o']t/i.test(text);
}
