// Image parts, checked as the real APIs check them (both wires): an image only where the wire allows one
// (Chat Completions: `image_url` parts in user messages only; Responses: `input_image` in user messages and in
// function_call_output arrays), as a data URL whose media type is an image type, whose base64 decodes and whose
// bytes are that type (the signature); or an http(s) URL; and only for a model that takes images (a model
// configured with `images: false` gets OpenAI's refusal). Anything else is a 400 the test sees in `errors`.
import { errorBody, Rejection } from "./errors.ts";
import type { ModelLimits } from "./types.ts";

const SIGNATURES: Record<string, (b: Uint8Array) => boolean> = {
  "image/png": (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47,
  "image/jpeg": (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  "image/gif": (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46,
  "image/webp": (b) => String.fromCharCode(...b.subarray(8, 12)) === "WEBP",
};

const invalid = (param: string, message: string, note: string) => new Rejection(400, errorBody(message, "invalid_request_error", param, "invalid_image"), note);

/** An image URL: undefined when good, else what is wrong with it. */
function urlProblem(url: unknown): string | undefined {
  if (typeof url !== "string" || url === "") return "has no URL";
  if (/^https?:\/\//.test(url)) return undefined;
  const m = /^data:(image\/[a-z+.-]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(url);
  if (!m) return `is not an http(s) URL nor a base64 data URL of an image type (starts ${JSON.stringify(url.slice(0, 40))})`;
  const check = SIGNATURES[m[1]!];
  if (!check) return `has media type ${m[1]}, which is not png, jpeg, gif or webp`;
  if (m[2]!.length % 4 !== 0 || m[2]!.length === 0) return "has base64 data of a length that is not a multiple of 4, or none";
  const bytes = new Uint8Array(Buffer.from(m[2]!, "base64"));
  if (!check(bytes)) return `says ${m[1]} but its bytes are not that format`;
  return undefined;
}

/** The images of a request, checked (see the top of this file). */
export function validateImages(wire: "chat" | "responses", body: any, models: Record<string, ModelLimits> | undefined): Rejection | undefined {
  const takes = models?.[body.model]?.images !== false;
  const refuse = (param: string) =>
    new Rejection(400, errorBody("Invalid content type. image_url is only supported by certain models.", "invalid_request_error", param, null), `${wire}: ${param} is an image, and model ${body.model} is configured without images`);
  if (wire === "chat") {
    const messages: any[] = Array.isArray(body.messages) ? body.messages : [];
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      if (!Array.isArray(m?.content)) continue;
      for (let j = 0; j < m.content.length; j++) {
        const part = m.content[j];
        const param = `messages.[${i}].content.[${j}]`;
        if (part?.type !== "image_url") continue;
        if (m.role !== "user")
          return invalid(param, `Image URLs are only allowed for messages with role 'user', but this message with role '${m.role}' contains an image URL.`, `chat: ${param} is an image in a ${m.role} message`);
        if (!takes) return refuse(`${param}.type`);
        const problem = urlProblem(part.image_url?.url);
        if (problem) return invalid(`${param}.image_url.url`, "Invalid image_url.", `chat: ${param} image_url ${problem}`);
      }
    }
    return undefined;
  }
  const input: any[] = Array.isArray(body.input) ? body.input : [];
  for (let i = 0; i < input.length; i++) {
    const item = input[i];
    const type = item?.type ?? (item?.role ? "message" : undefined);
    const parts: any[] | undefined = type === "message" ? item.content : type === "function_call_output" ? item.output : undefined;
    if (!Array.isArray(parts)) continue;
    for (let j = 0; j < parts.length; j++) {
      const part = parts[j];
      const param = type === "message" ? `input[${i}].content[${j}]` : `input[${i}].output[${j}]`;
      if (part?.type !== "input_image") continue;
      if (type === "message" && item.role !== "user")
        return invalid(param, `Invalid value: 'input_image'. Supported values are: 'output_text' and 'refusal'.`, `responses: ${param} is an input_image in a ${item.role} message`);
      if (!takes) return refuse(param);
      if (typeof part.file_id === "string" && part.file_id !== "") continue;
      const problem = urlProblem(part.image_url);
      if (problem) return invalid(`${param}.image_url`, "Invalid image_url.", `responses: ${param} input_image ${problem}`);
    }
  }
  return undefined;
}
