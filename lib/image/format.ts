/** The image formats shiro sends to a model: what every vision API takes. */
export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** An image's kind and size in pixels, read from its first bytes. */
export type ImageInfo = { mediaType: ImageMediaType; width: number; height: number };

const EXTENSIONS: Record<ImageMediaType, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp" };

/** The file extension shiro stores an image of this type under. */
export function extensionOf(mediaType: ImageMediaType): string {
  return EXTENSIONS[mediaType];
}

/** Names that look like an image by their extension: only these are read as images (a `.png` that is not one is refused). */
export const IMAGE_NAME = /\.(png|jpe?g|gif|webp)$/i;

/**
 * The image in `bytes`, from its signature and header (PNG IHDR, JPEG SOF, GIF screen, WebP
 * VP8/VP8L/VP8X), or undefined when the bytes are no image of these four kinds or the header is
 * cut short. Reads no more than the header; never throws.
 */
export function sniffImage(bytes: Uint8Array): ImageInfo | undefined {
  try {
    if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return sized("image/png", be32(bytes, 16), be32(bytes, 20));
    if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpegInfo(bytes);
    if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return sized("image/gif", le16(bytes, 6), le16(bytes, 8));
    if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return webpInfo(bytes);
  } catch {
    // a header cut short
  }
  return undefined;
}

function sized(mediaType: ImageMediaType, width: number, height: number): ImageInfo | undefined {
  return width > 0 && height > 0 ? { mediaType, width, height } : undefined;
}

/** The first start-of-frame marker's size (any SOF but DHT 0xC4, JPG 0xC8 and DAC 0xCC). */
function jpegInfo(bytes: Uint8Array): ImageInfo | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = be16(bytes, at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return sized("image/jpeg", be16(bytes, at + 7), be16(bytes, at + 5));
    if (marker === 0xd9 || marker === 0xda) return undefined;
    at += 2 + length;
  }
  return undefined;
}

function webpInfo(bytes: Uint8Array): ImageInfo | undefined {
  const chunk = ascii(bytes, 12, 4);
  if (chunk === "VP8 ") return sized("image/webp", le16(bytes, 26) & 0x3fff, le16(bytes, 28) & 0x3fff);
  if (chunk === "VP8L") {
    const b = (i: number) => bytes[21 + i]!;
    return sized("image/webp", 1 + (((b(1) & 0x3f) << 8) | b(0)), 1 + (((b(3) & 0xf) << 10) | (b(2) << 2) | ((b(1) & 0xc0) >> 6)));
  }
  if (chunk === "VP8X") return sized("image/webp", 1 + (bytes[24]! | (bytes[25]! << 8) | (bytes[26]! << 16)), 1 + (bytes[27]! | (bytes[28]! << 8) | (bytes[29]! << 16)));
  return undefined;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

function need(bytes: Uint8Array, end: number): void {
  if (end > bytes.length) throw new RangeError("header cut short");
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  if (at + length > bytes.length) return "";
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

function be16(bytes: Uint8Array, at: number): number {
  need(bytes, at + 2);
  return (bytes[at]! << 8) | bytes[at + 1]!;
}

function be32(bytes: Uint8Array, at: number): number {
  need(bytes, at + 4);
  return ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;
}

function le16(bytes: Uint8Array, at: number): number {
  need(bytes, at + 2);
  return bytes[at]! | (bytes[at + 1]! << 8);
}
