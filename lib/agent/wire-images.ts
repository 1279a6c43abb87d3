import type { FilePart, ModelMessage, TextPart, ToolResultPart } from "ai";
import { describeImage, storedImageOf, type StoredImage } from "../image/part.ts";
import type { ImageStore } from "../image/store.ts";
import { memoByIdentity } from "../prune/memo.ts";

/** Images sent in full in one request, the newest; older ones become a line each (see imagesOnWire). */
export const IMAGES_KEPT_ON_WIRE = 4;

/** What a request needs to carry the history's images: the wire, whether the model takes them, the bytes. */
export type WireImages = {
  api: "chat" | "responses";
  model: string;
  /** Read before every request: a refusal of images (an unknown model's 400) makes it false for the session. */
  takes(): boolean | undefined;
  /** Where the model's refusal came from, for the line in place of an image (image-support.ts). */
  from(): string;
  store: ImageStore;
};

/**
 * The messages as they go out, every stored image (lib/image/part.ts) replaced by what this
 * request can carry: its bytes, for the IMAGES_KEPT_ON_WIRE newest while the model takes images;
 * a line naming it otherwise (an older one, a model that does not take them, one no longer in
 * the store, or no `images` at all: a subagent's request). The history is never changed: an image
 * folded here is sent again in full by a later request that still keeps it.
 *
 * Where it goes: in a user message, where it was. A tool's image (read_file) goes in the tool's
 * output on the responses wire (function_call_output takes input_image parts); Chat Completions
 * tool messages cannot carry images, so there the output keeps its text and the images follow in
 * one user message after the run of tool messages. Returns `messages` itself when it holds no image.
 */
export function imagesOnWire(messages: readonly ModelMessage[], images: WireImages | undefined): { messages: ModelMessage[]; sent: number } {
  const found = countImages(messages);
  if (found === 0) return { messages: messages as ModelMessage[], sent: 0 };
  const takes = images?.takes() !== false && images !== undefined;
  let skip = Math.max(0, found - IMAGES_KEPT_ON_WIRE);
  let sent = 0;
  /** One stored image as this request carries it: the bytes, or a text part saying why not. */
  const resolve = (image: StoredImage): FilePart | TextPart => {
    if (!takes) return line(`[image ${describeImage(image)} not sent: ${images ? `${images.model} does not take images` : "images are not sent here"}]`);
    if (skip > 0) {
      skip--;
      return line(`[image ${describeImage(image)} was shown earlier; left out of this request to keep it small. Ask for it again (read_file, or the user attaches it) if you need to see it.]`);
    }
    const data = images!.store.base64(image.ref);
    if (data === undefined) return line(`[image ${describeImage(image)} is no longer stored, so it cannot be shown again]`);
    sent++;
    return { type: "file", mediaType: image.mediaType, filename: image.name, data: { type: "data", data } };
  };
  const out: ModelMessage[] = [];
  let pending: (FilePart | TextPart)[] = [];
  const flush = () => {
    if (pending.length > 0) out.push({ role: "user", content: pending });
    pending = [];
  };
  for (const message of messages) {
    if (message.role !== "tool") flush();
    if (message.role === "user" && typeof message.content !== "string") {
      out.push({ ...message, content: message.content.map((part) => (storedImageOf(part) ? resolve(storedImageOf(part)!) : part)) });
    } else if (message.role === "tool") {
      out.push({ ...message, content: message.content.map((part) => (part.type === "tool-result" ? toolResult(part, resolve, images?.api === "chat" && takes ? pending : undefined) : part)) });
    } else out.push(message);
  }
  flush();
  return { messages: out, sent };
}

function line(text: string): TextPart {
  return { type: "text", text };
}

/**
 * A tool result with its images resolved. `chatAfter` (Chat Completions): the images go there,
 * for the user message after the tool messages, and the output becomes text that says so.
 */
function toolResult(part: ToolResultPart, resolve: (image: StoredImage) => FilePart | TextPart, chatAfter: (FilePart | TextPart)[] | undefined): ToolResultPart {
  const output = part.output;
  if (output.type !== "content" || !output.value.some((p) => storedImageOf(p))) return part;
  const value = output.value.map((p) => {
    const image = storedImageOf(p);
    return image ? resolve(image) : p;
  });
  if (!chatAfter && value.every((p) => p.type === "text")) return { ...part, output: { type: "text", value: value.map((p) => (p as TextPart).text).join("\n") } };
  if (!chatAfter) return { ...part, output: { type: "content", value } as ToolResultPart["output"] };
  const text = value.filter((p): p is TextPart => p.type === "text").map((p) => p.text);
  const files = value.filter((p): p is FilePart => p.type === "file");
  if (files.length > 0) {
    chatAfter.push(line(`The ${files.length === 1 ? "image" : "images"} that ${part.toolName} (call ${part.toolCallId}) returned:`), ...files);
    text.push(`[${files.length === 1 ? "the image is" : "the images are"} in the user message after the tool results]`);
  }
  return { ...part, output: { type: "text", value: text.join("\n") } };
}

/** How many stored images the messages hold, in user messages and tool results. */
function countImages(messages: readonly ModelMessage[]): number {
  let n = 0;
  for (const m of messages) n += imagesInMessage(m);
  return n;
}

/** One message's stored images, counted once per message (the request is made before every step). */
const imagesInMessage = memoByIdentity((m: ModelMessage): number => {
  let n = 0;
  if (m.role === "user" && typeof m.content !== "string") n += m.content.filter((p) => storedImageOf(p)).length;
  else if (m.role === "tool")
    for (const p of m.content) if (p.type === "tool-result" && p.output.type === "content") n += p.output.value.filter((v) => storedImageOf(v)).length;
  return n;
});
