// lib/image: what an image is, from its bytes; shrinking to the limits in pure TypeScript; refusals that name the limit.
import { describe, expect, test } from "bun:test";
import { fitImage, MAX_IMAGE_BYTES, MAX_IMAGE_EDGE } from "../../lib/image/fit.ts";
import { sniffImage } from "../../lib/image/format.ts";
import { shrink } from "../../lib/image/resize.ts";
import { gifHeader, pngOf, sizeOf } from "../support/images.ts";
import jpeg from "jpeg-js";

describe("sniffImage", () => {
  test("PNG, JPEG, GIF and WebP give their type and size; anything else, or a cut header, gives nothing", () => {
    expect(sniffImage(pngOf(33, 7))).toEqual({ mediaType: "image/png", width: 33, height: 7 });
    const jpg = jpeg.encode({ width: 21, height: 5, data: new Uint8Array(21 * 5 * 4).fill(200) }, 90).data;
    expect(sniffImage(jpg)).toEqual({ mediaType: "image/jpeg", width: 21, height: 5 });
    expect(sniffImage(gifHeader(640, 480))).toEqual({ mediaType: "image/gif", width: 640, height: 480 });
    const webp = new Uint8Array(30);
    webp.set([...Buffer.from("RIFF"), 0, 0, 0, 0, ...Buffer.from("WEBPVP8X"), 0, 0, 0, 0, 0, 0, 0, 0, 0x7f, 0x02, 0x00, 0xdf, 0x01, 0x00]);
    expect(sniffImage(webp)).toEqual({ mediaType: "image/webp", width: 640, height: 480 });
    expect(sniffImage(new TextEncoder().encode("not an image at all"))).toBeUndefined();
    expect(sniffImage(pngOf(33, 7).subarray(0, 12))).toBeUndefined();
  });
});

describe("shrink", () => {
  test("each output pixel is the mean of the box it covers", () => {
    const data = new Uint8Array([0, 0, 0, 255, 200, 100, 50, 255, 0, 0, 0, 255, 200, 100, 50, 255]);
    expect([...shrink({ width: 4, height: 1, data }, 2, 1).data]).toEqual([100, 50, 25, 255, 100, 50, 25, 255]);
  });

  test("a transparent pixel does not darken its opaque neighbour", () => {
    const data = new Uint8Array([0, 0, 0, 0, 240, 240, 240, 255]);
    expect([...shrink({ width: 2, height: 1, data }, 1, 1).data]).toEqual([240, 240, 240, 128]);
  });
});

describe("fitImage", () => {
  test("an image within the limits is sent as it is, the same bytes", async () => {
    const png = pngOf(100, 50);
    const fitted = await fitImage(png);
    expect(fitted.ok && fitted.bytes).toBe(png);
  });

  test("a PNG wider than the edge limit is shrunk to it, keeping its proportions", async () => {
    const fitted = await fitImage(pngOf(4096, 1024));
    if (!fitted.ok) throw new Error(fitted.why);
    expect(fitted.info).toEqual({ mediaType: "image/png", width: MAX_IMAGE_EDGE, height: 512 });
    expect(sizeOf(fitted.bytes)).toEqual({ width: 2048, height: 512 });
    expect(fitted.shrunkFrom).toMatchObject({ width: 4096, height: 1024 });
  });

  test("a PNG over the byte limit within the edge becomes a JPEG small enough", async () => {
    const noise = pngOf(1400, 1200, "noise");
    expect(noise.length).toBeGreaterThan(MAX_IMAGE_BYTES);
    const fitted = await fitImage(noise);
    if (!fitted.ok) throw new Error(fitted.why);
    expect(fitted.bytes.length).toBeLessThanOrEqual(MAX_IMAGE_BYTES);
    expect(fitted.info.mediaType).toBe("image/jpeg");
    expect(sizeOf(fitted.bytes)).toEqual({ width: fitted.info.width, height: fitted.info.height });
  }, 30_000);

  test("what cannot be shrunk is refused with the limit named", async () => {
    expect(await fitImage(gifHeader(3000, 20))).toEqual({ ok: false, why: "is 3000×20 (the limit is 2048 pixels a side), and shiro shrinks only PNG and JPEG images" });
    expect(await fitImage(gifHeader(10, 10, MAX_IMAGE_BYTES + 1))).toEqual({ ok: false, why: "is 5.0 MB (the limit is 5 MB), and shiro shrinks only PNG and JPEG images" });
    const huge = pngOf(8, 8);
    huge.set([0, 0, 0x4e, 0x20, 0, 0, 0x4e, 0x20], 16); // IHDR says 20000×20000
    const refused = await fitImage(huge);
    expect(refused).toEqual({ ok: false, why: "is 20000×20000, more than the 40 megapixels shiro shrinks (images are sent at most 5 MB and 2048 pixels a side)" });
    expect(await fitImage(new TextEncoder().encode("hello"))).toEqual({ ok: false, why: "is not a PNG, JPEG, GIF or WebP image" });
  });
});
