import { IMAGE_NAME } from "../image/format.ts";

/** One image path a prompt names without `@`, as it was pasted, and as a path. */
export type PastedPath = { raw: string; path: string };

/**
 * A path dropped into the terminal: absolute, under `~/` or a `file://` URL, quoted ('…' or "…")
 * or with its spaces escaped (`My\ Shot.png`), ending in an image extension; on Windows a drive
 * path (`C:\Users\me\shot.png`, quoted when it has spaces), whose backslashes are separators.
 * Starts a word (or the prompt; or follows `@`), so `see x/y.png` in prose is left alone: a
 * relative path needs `@`.
 */
const PASTED = /(?<=^|[\s(@])(?:'((?:file:\/\/|~\/|\/|[A-Za-z]:\\)[^'\n]+)'|"((?:file:\/\/|~\/|\/|[A-Za-z]:\\)[^"\n]+)"|([A-Za-z]:\\[^\s'"]+)|((?:file:\/\/|~\/|\/)(?:\\.|[^\s\\'"])+))/g;

/**
 * The image paths pasted into `prompt` (see PASTED), each once, with quotes and backslash escapes
 * taken off, `~/` made `home`'s and a `file://` URL made a path. Pure; whether each names an image
 * file is for the caller to find out.
 */
export function pastedImagePaths(prompt: string, home: string): PastedPath[] {
  const out: PastedPath[] = [];
  for (const m of prompt.matchAll(PASTED)) {
    const quoted = m[1] ?? m[2];
    // Unquoted, a sentence's punctuation after the path is not part of it (`see /tmp/a.png, then…`).
    const drive = m[3]?.replace(/[.,;:!?)\]]+$/, "");
    const bare = quoted ?? drive ?? m[4]!.replace(/(?<!\\)[.,;:!?)\]]+$/, "").replace(/\\(.)/g, "$1");
    let path = bare.startsWith("file://") ? fileUrlPath(bare) : bare;
    if (path === undefined || !IMAGE_NAME.test(path)) continue;
    if (path.startsWith("~/")) path = `${home}/${path.slice(2)}`;
    if (!out.some((p) => p.path === path)) out.push({ raw: m[0], path });
  }
  return out;
}

function fileUrlPath(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).pathname);
  } catch {
    return undefined;
  }
}
