/** Images for specs, made here (pngjs, jpeg-js), and the images a captured request carried, whichever wire. */
import { PNG } from "pngjs";
import jpeg from "jpeg-js";

/** A PNG of `width` × `height`: a gradient (it compresses well), or noise (it does not). */
export function pngOf(width: number, height: number, fill: "gradient" | "noise" = "gradient"): Uint8Array {
  const png = new PNG({ width, height });
  let seed = 7;
  for (let i = 0; i < width * height; i++) {
    const x = i % width;
    const y = Math.floor(i / width);
    for (let c = 0; c < 3; c++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      png.data[i * 4 + c] = fill === "noise" ? seed >>> 24 : (x * 7 + y * 3 + c * 60) & 0xff;
    }
    png.data[i * 4 + 3] = 255;
  }
  return new Uint8Array(PNG.sync.write(png));
}

/** The width and height of PNG or JPEG bytes, decoded. */
export function sizeOf(bytes: Uint8Array): { width: number; height: number } {
  if (bytes[0] === 0x89) {
    const png = PNG.sync.read(Buffer.from(bytes));
    return { width: png.width, height: png.height };
  }
  const image = jpeg.decode(bytes, { useTArray: true });
  return { width: image.width, height: image.height };
}

/** A GIF header saying `width` × `height`, padded to `bytes`: shiro reads the header only, and never shrinks a GIF. */
export function gifHeader(width: number, height: number, bytes = 64): Uint8Array {
  const out = new Uint8Array(bytes);
  out.set([...Buffer.from("GIF89a"), width & 0xff, width >> 8, height & 0xff, height >> 8]);
  return out;
}

/** An image a request carried: where it was, its media type and its bytes. */
export type SentImage = { where: string; mediaType: string; bytes: Uint8Array };

/**
 * Every image in a captured request, in order: chat `image_url` parts (where: `user` or the role),
 * Responses `input_image` parts in messages (`user`) and in function_call_output arrays (`tool output`).
 */
export function imagesIn(body: any): SentImage[] {
  const out: SentImage[] = [];
  const add = (where: string, url: string) => {
    const m = /^data:([^;]+);base64,(.*)$/.exec(url);
    if (m) out.push({ where, mediaType: m[1]!, bytes: new Uint8Array(Buffer.from(m[2]!, "base64")) });
  };
  for (const m of body.messages ?? []) if (Array.isArray(m.content)) for (const p of m.content) if (p.type === "image_url") add(m.role, p.image_url.url);
  for (const item of body.input ?? []) {
    const parts = item.type === "function_call_output" ? item.output : item.content;
    if (Array.isArray(parts)) for (const p of parts) if (p.type === "input_image") add(item.type === "function_call_output" ? "tool output" : item.role, p.image_url);
  }
  return out;
}
