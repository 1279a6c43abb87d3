import type { FilePart, UserContent } from "ai";
import type { ImageMediaType } from "./format.ts";
import { isImageRef } from "./store.ts";

/** An image as the history keeps it: the store's reference and what the model is told about it. */
export type StoredImage = { ref: string; mediaType: ImageMediaType; name: string; width: number; height: number };

/** A file part with reference data: one shape that a user message and a tool's content output both take. */
export type StoredImagePart = FilePart & { data: { type: "reference"; reference: { shiro: string } }; mediaType: string; filename: string };

/**
 * The part a history message carries for an image: a file part whose data is a reference under
 * the `shiro` key, never the bytes. No provider can read it: the request is made with the bytes
 * put in its place (lib/agent/wire-images.ts), or a line saying why the image is left out.
 */
export function storedImagePart(image: StoredImage): StoredImagePart {
  return {
    type: "file",
    mediaType: image.mediaType,
    filename: image.name,
    data: { type: "reference", reference: { shiro: image.ref } },
    providerOptions: { shiro: { width: image.width, height: image.height } },
  };
}

/** The image a part stands for, when it is one of storedImagePart's; undefined for any other part. */
export function storedImageOf(part: unknown): StoredImage | undefined {
  if (typeof part !== "object" || part === null) return undefined;
  const p = part as { type?: unknown; mediaType?: unknown; filename?: unknown; data?: { type?: unknown; reference?: { shiro?: unknown } }; providerOptions?: { shiro?: { width?: unknown; height?: unknown } } };
  const ref = p.type === "file" && p.data?.type === "reference" ? p.data.reference?.shiro : undefined;
  if (typeof ref !== "string" || !isImageRef(ref)) return undefined;
  const size = p.providerOptions?.shiro;
  return {
    ref,
    mediaType: String(p.mediaType) as ImageMediaType,
    name: typeof p.filename === "string" ? p.filename : "image",
    width: typeof size?.width === "number" ? size.width : 0,
    height: typeof size?.height === "number" ? size.height : 0,
  };
}

/** `shot.png (1280×720)`: an image in the words a placeholder or a line on screen uses. */
export function describeImage(image: Pick<StoredImage, "name" | "width" | "height">): string {
  return image.width > 0 ? `${image.name} (${image.width}×${image.height})` : image.name;
}

/**
 * The block attachMentions (lib/prompt/attach.ts) adds to a prompt for an attached image, in the
 * same `<attached>` form as a file's, so the prompt's text names it and the replay lists it.
 */
export function imageBlock(path: string, image: StoredImage): string {
  return `<attached path="${path.replace(/"/g, "%22")}" kind="image" ref="${image.ref}" type="${image.mediaType}" size="${image.width}x${image.height}">\n[the image is attached after this text]\n</attached>`;
}

const IMAGE_BLOCK = /\n\n<attached path="([^"\n]*)" kind="image" ref="([0-9a-f]{64}\.(?:png|jpg|gif|webp))" type="(image\/(?:png|jpeg|gif|webp))" size="(\d+)x(\d+)">\n\[the image is attached after this text\]\n<\/attached>/g;
/** A run of attachment blocks as attachMentions adds them (attach.ts reads the same). */
const ATTACHED_RUN = /(?:\n\n<attached path="[^"\n]*"[^>\n]*>\n[\s\S]*?\n<\/attached>)+/g;

/**
 * A user message's content for a prompt: the text as it is, and after it one image part per image
 * block in its last run of attachment blocks (the one attachMentions added: a block quoted earlier
 * in the text is text; what shiro adds after the attachments, a hook's context or a note about
 * finished jobs, may follow it). A prompt without images stays a string, as every prompt was
 * before images.
 */
export function promptContent(prompt: string): string | UserContent {
  if (!prompt.includes('kind="image"')) return prompt;
  const tail = [...prompt.matchAll(ATTACHED_RUN)].at(-1)?.[0];
  if (!tail) return prompt;
  const images = [...tail.matchAll(IMAGE_BLOCK)].map((m) =>
    storedImagePart({ name: m[1]!.replace(/%22/g, '"').split("/").pop()!, ref: m[2]!, mediaType: m[3] as ImageMediaType, width: Number(m[4]), height: Number(m[5]) }),
  );
  return images.length === 0 ? prompt : [{ type: "text", text: prompt }, ...images];
}

/** A user message's text, whichever form its content has. */
export function promptText(content: string | UserContent): string {
  return typeof content === "string" ? content : content.map((p) => (p.type === "text" ? p.text : "")).join("");
}
