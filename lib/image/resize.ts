/** Pixels as RGBA bytes, row by row. */
export type Rgba = { width: number; height: number; data: Uint8Array };

/**
 * `image` shrunk to `width` × `height` (each at most the source's) by area averaging: every
 * output pixel is the mean of the source pixels its box covers, weighted by how much of each it
 * covers, which keeps text in a screenshot readable where skipping pixels would not. Colour is
 * averaged weighted by alpha, so transparent pixels do not darken the edges. Pure.
 */
export function shrink(image: Rgba, width: number, height: number): Rgba {
  if (width >= image.width && height >= image.height) return image;
  const out = new Uint8Array(width * height * 4);
  const xs = spans(image.width, width);
  const ys = spans(image.height, height);
  const src = image.data;
  for (let oy = 0; oy < height; oy++) {
    const rows = ys[oy]!;
    for (let ox = 0; ox < width; ox++) {
      const cols = xs[ox]!;
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      let weight = 0;
      for (const [sy, wy] of rows) {
        const row = sy * image.width;
        for (const [sx, wx] of cols) {
          const w = wx * wy;
          const i = (row + sx) * 4;
          const alpha = src[i + 3]! * w;
          r += src[i]! * alpha;
          g += src[i + 1]! * alpha;
          b += src[i + 2]! * alpha;
          a += alpha;
          weight += w;
        }
      }
      const o = (oy * width + ox) * 4;
      if (a > 0) {
        out[o] = Math.round(r / a);
        out[o + 1] = Math.round(g / a);
        out[o + 2] = Math.round(b / a);
      }
      out[o + 3] = Math.round(a / weight);
    }
  }
  return { width, height, data: out };
}

/** For each output index, the source indices it covers and how much of each (the weights add up to the box's width). */
function spans(from: number, to: number): [number, number][][] {
  const scale = from / to;
  const out: [number, number][][] = [];
  for (let i = 0; i < to; i++) {
    const start = i * scale;
    const end = Math.min(from, (i + 1) * scale);
    const covered: [number, number][] = [];
    for (let s = Math.floor(start); s < end; s++) covered.push([s, Math.min(end, s + 1) - Math.max(start, s)]);
    out.push(covered);
  }
  return out;
}
