import { sniffImage, type ImageInfo, type ImageMediaType } from "./format.ts";
import { shrink, type Rgba } from "./resize.ts";

/**
 * The largest image shiro sends, in bytes: 5 MB, the smallest per-image limit of the hosted
 * vision APIs (Anthropic's; OpenAI takes more), so an image that passes here passes there.
 */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** The longest side shiro sends, in pixels: OpenAI scales a larger image down to fit 2048 × 2048 anyway. */
export const MAX_IMAGE_EDGE = 2048;
/** The most pixels shiro decodes to shrink an image (about 160 MB of RGBA); a larger one is refused. */
export const MAX_DECODE_PIXELS = 40_000_000;

/** An image ready to send: its bytes, what they are, and the size it had before shiro shrank it. */
export type FittedImage = { ok: true; bytes: Uint8Array; info: ImageInfo; shrunkFrom?: { width: number; height: number; bytes: number } };
export type ImageRefusal = { ok: false; why: string };

/**
 * The image within the limits: as it is when it fits (at most MAX_IMAGE_BYTES and
 * MAX_IMAGE_EDGE on its longest side); a PNG or JPEG that does not is decoded, shrunk to fit the
 * edge and encoded again (PNG stays PNG unless only a JPEG fits the bytes; JPEG at quality 85),
 * smaller each try until it fits. Refused, with the limit named: bytes that are no PNG, JPEG, GIF
 * or WebP image, a GIF or WebP over a limit (shiro shrinks only the two it can decode), an image
 * over MAX_DECODE_PIXELS, or one that cannot be decoded. The codecs (pngjs, jpeg-js: pure
 * JavaScript, so the cross-compiled builds keep working) load only when an image must shrink.
 */
export async function fitImage(bytes: Uint8Array): Promise<FittedImage | ImageRefusal> {
  const info = sniffImage(bytes);
  if (!info) return { ok: false, why: "is not a PNG, JPEG, GIF or WebP image" };
  const longest = Math.max(info.width, info.height);
  if (bytes.length <= MAX_IMAGE_BYTES && longest <= MAX_IMAGE_EDGE) return { ok: true, bytes, info };
  const over = bytes.length > MAX_IMAGE_BYTES ? `${megabytes(bytes.length)} (the limit is ${megabytes(MAX_IMAGE_BYTES)})` : `${info.width}×${info.height} (the limit is ${MAX_IMAGE_EDGE} pixels a side)`;
  if (info.mediaType !== "image/png" && info.mediaType !== "image/jpeg") return { ok: false, why: `is ${over}, and shiro shrinks only PNG and JPEG images` };
  if (info.width * info.height > MAX_DECODE_PIXELS) return { ok: false, why: `is ${info.width}×${info.height}, more than the ${MAX_DECODE_PIXELS / 1_000_000} megapixels shiro shrinks (images are sent at most ${megabytes(MAX_IMAGE_BYTES)} and ${MAX_IMAGE_EDGE} pixels a side)` };
  let decoded: Rgba;
  try {
    decoded = await decode(bytes, info.mediaType);
  } catch (error) {
    return { ok: false, why: `is ${over}, and could not be decoded to shrink it (${error instanceof Error ? error.message : String(error)})` };
  }
  const shrunkFrom = { width: info.width, height: info.height, bytes: bytes.length };
  let scale = Math.min(1, MAX_IMAGE_EDGE / longest);
  for (let tries = 0; tries < 8; tries++, scale *= 0.75) {
    const width = Math.max(1, Math.round(info.width * scale));
    const height = Math.max(1, Math.round(info.height * scale));
    const small = shrink(decoded, width, height);
    for (const mediaType of info.mediaType === "image/png" ? (["image/png", "image/jpeg"] as const) : (["image/jpeg"] as const)) {
      const out = await encode(small, mediaType);
      if (out.length <= MAX_IMAGE_BYTES) return { ok: true, bytes: out, info: { mediaType, width, height }, shrunkFrom };
    }
  }
  return { ok: false, why: `is ${over}, and shrinking it did not bring it under ${megabytes(MAX_IMAGE_BYTES)}` };
}

/** Bytes in the words a refusal uses: `7.2 MB`. */
export function megabytes(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  return `${mb >= 10 || Number.isInteger(mb) ? Math.round(mb) : mb.toFixed(1)} MB`;
}

async function decode(bytes: Uint8Array, mediaType: ImageMediaType): Promise<Rgba> {
  if (mediaType === "image/png") {
    const { PNG } = await import("pngjs");
    const png = PNG.sync.read(Buffer.from(bytes));
    return { width: png.width, height: png.height, data: png.data };
  }
  const jpeg = await import("jpeg-js");
  const image = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_DECODE_PIXELS / 1_000_000, maxMemoryUsageInMB: 1024 });
  return { width: image.width, height: image.height, data: image.data };
}

async function encode(image: Rgba, mediaType: "image/png" | "image/jpeg"): Promise<Uint8Array> {
  if (mediaType === "image/png") {
    const { PNG } = await import("pngjs");
    const png = new PNG({ width: image.width, height: image.height });
    png.data = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
    return new Uint8Array(PNG.sync.write(png));
  }
  const jpeg = await import("jpeg-js");
  return new Uint8Array(jpeg.encode({ width: image.width, height: image.height, data: onWhite(image.data) }, 85).data);
}

/** RGBA with every pixel made opaque over white: JPEG has no transparency. */
function onWhite(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i += 4) {
    const a = data[i + 3]! / 255;
    out[i] = Math.round(data[i]! * a + 255 * (1 - a));
    out[i + 1] = Math.round(data[i + 1]! * a + 255 * (1 - a));
    out[i + 2] = Math.round(data[i + 2]! * a + 255 * (1 - a));
    out[i + 3] = 255;
  }
  return out;
}
