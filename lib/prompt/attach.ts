import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { megabytes } from "../image/fit.ts";
import { sniffImage } from "../image/format.ts";
import { attachImage, MAX_IMAGE_FILE_BYTES, type AttachImages } from "./attach-image.ts";
import { pastedImagePaths } from "./image-paths.ts";
import { resolve } from "node:path";
import { looksBinary } from "../fs/binary.ts";
import { readConfined } from "../fs/confined-ops.ts";
import { statIfExists } from "../fs/missing-path.ts";
import { isSensitivePath, SECRETS_FILES } from "../fs/sensitive-path.ts";
import { treeListing } from "../fs/tree-listing.ts";
import { displayPath, isInside, realpathOrSelf, resolveInWorkspace, type Where } from "../fs/workspace.ts";
import { clipLine, numberedLine, plural, splitLines } from "../text/lines.ts";
import { DEFAULT_LIST_DEPTH, MAX_LIST_ENTRIES } from "../tools/list-dir.ts";
import { MAX_LINE_CHARS, MAX_READ_BYTES } from "../tools/read-file.ts";

/** Lines of one attached file sent at most; the rest is left out (read_file can fetch it). */
export const ATTACH_MAX_LINES = 2_000;
/** Characters of one attached file's numbered lines sent at most. */
export const ATTACH_MAX_CHARS = 100_000;

/** What became of one `@path` in a prompt; each is one line on screen (`describeAttachment`). */
export type AttachReport =
  | { kind: "attached"; path: string; what: string }
  | { kind: "refused"; path: string; why: string }
  | { kind: "missing"; mention: string };

/** A `@word` at the start of a word (or after "("), so `me@example.com` is not one. */
const MENTION = /(^|[\s(])@([^\s]+)/g;
/** Punctuation a sentence puts after a path: `see @a.ts, then…`; tried without when the whole word is no file. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}"'`]+$/;
/** The tail of a prompt that attachments were added to (see attachMentions). */
const ATTACHED_TAIL = /(?:\n\n<attached path="[^"\n]*"[^>\n]*>\n[\s\S]*?\n<\/attached>)+$/;

/**
 * The prompt with every `@path` that names a file or directory in the workspace attached: the
 * text stays as typed, and after it comes one `<attached path="…">` block per path (each once),
 * a file as numbered lines (read_file's format, bounded by ATTACH_MAX_LINES and
 * ATTACH_MAX_CHARS, with a note saying what was left out), a directory as list_dir's tree.
 * Refused, with the reason in `reports`: paths outside the workspace (also through a symlink),
 * secrets files, binary files, files over read_file's size limit. A `@word` that names nothing
 * (a handle, a typo) is left as text and reported as missing. `unscanned` (text piped in) goes
 * between the prompt and the blocks, its `@`s left alone. Mentions `others` claims are skipped.
 * Reads files; never throws for them.
 *
 * With `images`, an image (PNG, JPEG, GIF, WebP, by its bytes) is attached as an image
 * (attach-image.ts), named with `@` or pasted as a path (image-paths.ts: a terminal drops one in
 * quoted or with escaped spaces): from wherever the user names it, since screenshots live
 * outside the project, but never a secrets file. Without `images`, an image is a binary file.
 * An image outside the workspace (by its real path) is attached only when the user typed its
 * path: `typed` is the part of `prompt` the user typed (all of it when not given; a custom
 * command's arguments when its file is the project's); one named only elsewhere (that command
 * file) is refused, so a cloned project cannot send the user's pictures to the model.
 */
export async function attachMentions(prompt: string, where: Where, opts: { unscanned?: string; others?: (mention: string) => boolean; images?: AttachImages; typed?: string } = {}): Promise<{ text: string; reports: AttachReport[] }> {
  const reports: AttachReport[] = [];
  const blocks: string[] = [];
  const seen = new Set<string>();
  const typedPaths = opts.images ? namedPaths(opts.typed ?? prompt, where, opts.images.home, opts.others) : new Set<string>();
  const imageAt = (abs: string, images: AttachImages) => imageFrom(abs, shownPath(where, abs), images, typedPaths.has(abs) ? undefined : where.root);
  const add = (attached: { report: AttachReport; block?: string }) => {
    reports.push(attached.report);
    if (attached.block) blocks.push(attached.block);
  };
  for (const match of prompt.matchAll(MENTION)) {
    const mention = match[2]!;
    if (opts.others?.(mention)) continue; // an MCP resource (`@server:uri`), attached by lib/app/mcp-attach.ts
    const path = existingPath(mention, where);
    if (path === undefined) {
      // A quoted or escaped path (`@'My Shot.png'`) is a pasted one, found below.
      if (!opts.images || !/^['"]|\\/.test(mention)) reports.push({ kind: "missing", mention: `@${mention}` });
      continue;
    }
    const abs = resolve(where.cwd, path);
    if (seen.has(abs)) continue;
    seen.add(abs);
    add((opts.images && (await imageAt(abs, opts.images))) || attachOne(path, where));
  }
  for (const pasted of opts.images ? pastedImagePaths(prompt, opts.images.home) : []) {
    const abs = resolve(where.cwd, pasted.path);
    if (seen.has(abs) || !statIfExistsQuietly(abs)?.isFile()) continue;
    seen.add(abs);
    const attached = await imageAt(abs, opts.images!);
    if (attached) add(attached);
  }
  return { text: [prompt, ...(opts.unscanned ? [opts.unscanned] : []), ...blocks].join("\n\n"), reports };
}

/** The absolute paths `typed` names, as `@path` or pasted (the same reading as attachMentions'). */
function namedPaths(typed: string, where: Where, home: string, others?: (mention: string) => boolean): Set<string> {
  const named = new Set<string>();
  for (const match of typed.matchAll(MENTION)) {
    const path = others?.(match[2]!) ? undefined : existingPath(match[2]!, where);
    if (path !== undefined) named.add(resolve(where.cwd, path));
  }
  for (const pasted of pastedImagePaths(typed, home)) named.add(resolve(where.cwd, pasted.path));
  return named;
}

/** Whether `abs` lies outside the workspace, itself or through a symlink. */
function outsideWorkspace(where: Where, abs: string): boolean {
  return !isInside(where.root, abs) || !isInside(realpathOrSelf(where.root), realpathOrSelf(abs));
}

/**
 * The file at `abs` attached as an image, or undefined when it is no image (its bytes decide,
 * not its name), so the caller attaches it as any other file. A secrets file is refused first;
 * so is one named by words the user did not type (`confineTo`: the workspace root then) outside
 * the workspace, and such an image inside it is read link by link (lib/fs/confined.ts), so a link
 * swapped in after this check reads nothing outside either.
 */
async function imageFrom(abs: string, shown: string, images: AttachImages, confineTo: string | undefined): Promise<{ report: AttachReport; block?: string } | undefined> {
  const stats = statIfExistsQuietly(abs);
  if (!stats?.isFile()) return undefined;
  const refuse = (why: string) => ({ report: { kind: "refused" as const, path: shown, why } });
  if (isSensitivePath(abs) || isSensitivePath(realpathOrSelf(abs))) return refuse(`${shown} is a secrets file (${SECRETS_FILES}), which shiro does not send`);
  const untyped = `${shown} is outside the workspace and was named by the project's command file, not typed by you; type its path to attach it`;
  if (confineTo !== undefined && outsideWorkspace({ root: confineTo, cwd: confineTo }, abs)) return sniffImageQuietly(abs) ? refuse(untyped) : undefined;
  let bytes: Uint8Array;
  try {
    if (!sniffImage(readHead(abs))) return undefined;
    if (stats.size > MAX_IMAGE_FILE_BYTES) return refuse(`${shown} is ${megabytes(stats.size)}, more than the ${megabytes(MAX_IMAGE_FILE_BYTES)} of an image shiro reads`);
    if (confineTo === undefined) bytes = readFileSync(abs);
    else {
      const found = readConfined({ root: confineTo, tool: "attach" }, abs, { maxBytes: MAX_IMAGE_FILE_BYTES });
      if (!found.bytes) return refuse(`${shown} cannot be read as a file`);
      bytes = found.bytes;
    }
  } catch (error) {
    return refuse(`${shown} cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  const info = sniffImage(bytes);
  if (!info) return undefined;
  const attached = await attachImage(shown, bytes, info, images);
  return attached.attached ? { report: { kind: "attached", path: shown, what: attached.what }, block: attached.block } : refuse(`${attached.why}`);
}

/** A path as a line on screen names it: from the workspace inside it, whole outside (a screenshot's folder). */
function shownPath(where: Where, abs: string): string {
  return abs === where.root || abs.startsWith(`${where.root}/`) ? displayPath(where, abs) : abs;
}

/** Whether the file at `abs` starts as an image does; false when it cannot be read. */
function sniffImageQuietly(abs: string): boolean {
  try {
    return sniffImage(readHead(abs)) !== undefined;
  } catch {
    return false;
  }
}

/** The first bytes of a file: enough for any image header sniffImage reads. */
function readHead(abs: string): Uint8Array {
  const fd = openSync(abs, "r");
  try {
    const head = new Uint8Array(64 * 1024);
    return head.subarray(0, readSync(fd, head, 0, head.length, 0));
  } finally {
    closeSync(fd);
  }
}

/** The prompt as the user typed it: the attachment blocks attachMentions added taken off. */
export function withoutAttachments(text: string): string {
  return text.replace(ATTACHED_TAIL, "");
}

/** The paths of the blocks attachMentions added to `text`, in order. */
export function attachedPaths(text: string): string[] {
  const tail = ATTACHED_TAIL.exec(text)?.[0] ?? "";
  return [...tail.matchAll(/\n\n<attached path="([^"\n]*)"/g)].map((m) => m[1]!.replace(/%22/g, '"'));
}

/**
 * The one line the screen shows for a report, without escape sequences or control characters:
 * a resource's type and a prompt's resource URI are an MCP server's words, a file name the project's.
 */
export function describeAttachment(report: AttachReport): string {
  return Bun.stripANSI(reportLine(report)).replace(/[\x00-\x1f\x7f-\x9f]/g, " ");
}

function reportLine(report: AttachReport): string {
  switch (report.kind) {
    case "attached":
      return `attached ${report.path} (${report.what})`;
    case "refused":
      return `not attached: ${report.why}`;
    case "missing":
      return `${report.mention} names no file here; sent as text`;
    default:
      return report satisfies never;
  }
}

/** The mention as a path that exists, or without its trailing punctuation; undefined when neither does. */
function existingPath(mention: string, where: Where): string | undefined {
  const bare = mention.replace(TRAILING_PUNCTUATION, "");
  for (const candidate of bare && bare !== mention ? [mention, bare] : [mention]) {
    if (statIfExistsQuietly(resolve(where.cwd, candidate))) return candidate;
  }
  return undefined;
}

function statIfExistsQuietly(abs: string) {
  try {
    return statIfExists(abs);
  } catch {
    return undefined; // unreadable: treated as absent, then refused by the read below if it exists
  }
}

function attachOne(path: string, where: Where): { report: AttachReport; block?: string } {
  let abs: string;
  try {
    abs = resolveInWorkspace(where, path);
  } catch (error) {
    return { report: { kind: "refused", path, why: error instanceof Error ? error.message : String(error) } };
  }
  const shown = displayPath(where, abs);
  const refuse = (why: string) => ({ report: { kind: "refused" as const, path: shown, why: `${shown} ${why}` } });
  if (isSensitivePath(abs) || isSensitivePath(realpathOrSelf(abs))) return refuse(`is a secrets file (${SECRETS_FILES}), which shiro does not send`);
  const stats = statIfExistsQuietly(abs);
  if (!stats) return refuse("cannot be read");
  if (stats.isDirectory()) {
    const listing = treeListing(abs, where.root, shown, DEFAULT_LIST_DEPTH, MAX_LIST_ENTRIES);
    if (listing.capped) listing.lines.push(`[Stopped at ${MAX_LIST_ENTRIES} entries; list_dir on a subdirectory shows the rest.]`);
    const what = `directory listing, ${listing.capped ? "over " : ""}${plural(listing.count, "entry", "entries")}`;
    return { report: { kind: "attached", path: `${shown}/`, what }, block: attachmentBlock(`${shown}/`, 'kind="directory"', listing.lines.join("\n")) };
  }
  if (!stats.isFile()) return refuse("is not a regular file");
  if (stats.size > MAX_READ_BYTES) return refuse(`is ${(stats.size / 1024 / 1024).toFixed(1)} MB, too large to attach; ask for the part you need`);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(abs);
  } catch (error) {
    return refuse(`cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  if (looksBinary(bytes)) return refuse("is a binary file, which cannot be attached as text");
  const lines = splitLines(new TextDecoder().decode(bytes));
  if (lines.length === 0) return { report: { kind: "attached", path: shown, what: "empty" }, block: attachmentBlock(shown, 'lines="0"', `${shown} is empty.`) };
  const numbered = numberedWindow(lines);
  const whole = numbered.shown === lines.length;
  const what = whole ? plural(lines.length, "line") : `lines 1-${count(numbered.shown)} of ${count(lines.length)}; the rest left out`;
  const note = whole ? "" : `\n\n[Showing lines 1-${numbered.shown} of ${lines.length} in ${shown}. Call read_file with offset ${numbered.shown + 1} to read more.]`;
  return { report: { kind: "attached", path: shown, what }, block: attachmentBlock(shown, `lines="${lines.length}"`, numbered.body + note) };
}

/** The first lines, numbered as read_file numbers them, within the line and character bounds. */
function numberedWindow(lines: readonly string[]): { body: string; shown: number } {
  const out: string[] = [];
  let chars = 0;
  for (const [i, line] of lines.entries()) {
    if (out.length === ATTACH_MAX_LINES) break;
    const numbered = numberedLine(i + 1, clipLine(line, MAX_LINE_CHARS));
    if (out.length > 0 && chars + numbered.length + 1 > ATTACH_MAX_CHARS) break;
    out.push(numbered);
    chars += numbered.length + 1;
  }
  return { body: out.join("\n"), shown: out.length };
}

/** One attachment block: what the tail of a prompt holds for each attachment. */
export function attachmentBlock(path: string, attributes: string, body: string): string {
  return `<attached path="${path.replace(/"/g, "%22")}" ${attributes}>\n${body}\n</attached>`;
}

const count = (n: number) => n.toLocaleString("en-US");
