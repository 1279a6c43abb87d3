/** Pixels as RGBA bytes, row by row. */
export type Rgba = { width: number; height: number; data: Uint8Array };

/**
 * `image` shrunk to `width` × `height` (each at most the source's) by area averaging: every
 * output pixel is the mean of the source pixels its box covers, weighted by how much of each it
 * covers, which keeps text in a screenshot readable where skipping pixels would not. Colour is
 * averaged weighted by alpha, so transparent pixels do not darken the edges. Done in two passes
 * (rows, then columns) over premultiplied floats: a 12-megapixel photo takes well under a second.
 * Pure.
 */
export function shrink(image: Rgba, width: number, height: number): Rgba {
  if (width >= image.width && height >= image.height) return image;
  const xs = boxes(image.width, width);
  const ys = boxes(image.height, height);
  const src = image.data;
  // Pass 1: each source row shrunk to `width`, premultiplied by alpha.
  const mid = new Float32Array(width * image.height * 4);
  for (let y = 0; y < image.height; y++) {
    const row = y * image.width;
    for (let ox = 0; ox < width; ox++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let k = xs.from[ox]!, end = xs.from[ox + 1]!; k < end; k++) {
        const i = (row + xs.index[k]!) * 4;
        const alpha = src[i + 3]! * xs.weight[k]!;
        r += src[i]! * alpha;
        g += src[i + 1]! * alpha;
        b += src[i + 2]! * alpha;
        a += alpha;
      }
      const o = (y * width + ox) * 4;
      mid[o] = r;
      mid[o + 1] = g;
      mid[o + 2] = b;
      mid[o + 3] = a;
    }
  }
  // Pass 2: the columns shrunk to `height`, and the colour divided back out of the alpha.
  const out = new Uint8Array(width * height * 4);
  for (let oy = 0; oy < height; oy++) {
    for (let ox = 0; ox < width; ox++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let k = ys.from[oy]!, end = ys.from[oy + 1]!; k < end; k++) {
        const i = (ys.index[k]! * width + ox) * 4;
        const w = ys.weight[k]!;
        r += mid[i]! * w;
        g += mid[i + 1]! * w;
        b += mid[i + 2]! * w;
        a += mid[i + 3]! * w;
      }
      const o = (oy * width + ox) * 4;
      if (a > 0) {
        out[o] = Math.round(r / a);
        out[o + 1] = Math.round(g / a);
        out[o + 2] = Math.round(b / a);
      }
      out[o + 3] = Math.round(a);
    }
  }
  return { width, height, data: out };
}

/**
 * For each output index `i`, the source indices its box covers (`index[from[i]..from[i+1])`) and
 * the share of the box each one is (`weight`, adding up to 1).
 */
function boxes(size: number, to: number): { from: Int32Array; index: Int32Array; weight: Float32Array } {
  const scale = size / to;
  const from = new Int32Array(to + 1);
  const index: number[] = [];
  const weight: number[] = [];
  for (let i = 0; i < to; i++) {
    from[i] = index.length;
    const start = i * scale;
    const end = Math.min(size, (i + 1) * scale);
    for (let s = Math.floor(start); s < end; s++) {
      index.push(s);
      weight.push((Math.min(end, s + 1) - Math.max(start, s)) / (end - start));
    }
  }
  from[to] = index.length;
  return { from, index: Int32Array.from(index), weight: Float32Array.from(weight) };
}
