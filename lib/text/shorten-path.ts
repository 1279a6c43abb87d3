import { graphemes } from "./graphemes.ts";

/** What stands for the part of a path (or a name) left out. */
export const ELLIPSIS = "…";

/**
 * `path` in at most `width` columns, shortened in the middle when it is wider, never wrapped:
 * its first segment and as many of its last segments as fit, with `…` for those left out
 * (`~/…/packages/billing-service`); when not even `…/` and the last segment fit, the text itself
 * is cut in its middle (`billing-se…integration`). Works for anything slash-separated, a model
 * id such as `accounts/fireworks/models/qwen3-coder` too. Pure.
 */
export function shortenPath(path: string, width: number): string {
  if (Bun.stringWidth(path) <= width) return path;
  const segments = path.split("/");
  if (segments.length > 2) {
    // "" for an absolute path (so "/…/tail"), "~", or a first folder.
    const head = segments[0]!;
    for (let keep = segments.length - 2; keep >= 1; keep--) {
      const candidate = [head, ELLIPSIS, ...segments.slice(-keep)].join("/");
      if (Bun.stringWidth(candidate) <= width) return candidate;
    }
  }
  if (segments.length > 1) {
    const tail = `${ELLIPSIS}/${segments.at(-1)}`;
    if (Bun.stringWidth(tail) <= width) return tail;
  }
  return cutMiddle(path, width);
}

/** `text` with its middle replaced by `…` so it takes at most `width` columns (the start kept a little longer). Pure. */
export function cutMiddle(text: string, width: number): string {
  if (Bun.stringWidth(text) <= width) return text;
  if (width <= 1) return width === 1 ? ELLIPSIS : "";
  const chars = graphemes(text);
  const room = width - 1;
  const take = (from: readonly string[], columns: number) => {
    const out: string[] = [];
    let used = 0;
    for (const char of from) {
      const w = Bun.stringWidth(char);
      if (used + w > columns) break;
      out.push(char);
      used += w;
    }
    return out;
  };
  const start = take(chars, Math.ceil(room / 2));
  const end = take([...chars].reverse(), room - Bun.stringWidth(start.join(""))).reverse();
  return `${start.join("")}${ELLIPSIS}${end.join("")}`;
}
