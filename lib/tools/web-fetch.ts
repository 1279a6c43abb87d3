import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { looksBinary } from "../fs/binary.ts";
import { DEFAULT_WEB_FETCH_MAX_BYTES, DEFAULT_WEB_FETCH_TIMEOUT_MS } from "../config/defaults.ts";
import type { FetchLimits, Resolver } from "../net/fetch-page.ts";
import { defineTool } from "./define.ts";

/** What web_fetch may do (config `webFetch`, resolved into Settings). */
export type WebFetchOptions = Omit<FetchLimits, "maxRedirects">;

export const WEB_FETCH_DEFAULTS: WebFetchOptions = { timeoutMs: DEFAULT_WEB_FETCH_TIMEOUT_MS, maxBytes: DEFAULT_WEB_FETCH_MAX_BYTES, allowHosts: [] };
const MAX_REDIRECTS = 5;

const schema = v.object({
  url: v.pipe(v.string(), v.minLength(1, "url must not be empty"), v.description("http(s) URL")),
});

/**
 * web_fetch: one page, as Markdown (HTML) or as it is (other text). Only public addresses,
 * checked after DNS and pinned for the connection (lib/net/fetch-page.ts); capped in time and
 * size. Reads the network, so read-only tool sets leave it out unless the config lets them.
 */
export function createWebFetchTool(options: WebFetchOptions = WEB_FETCH_DEFAULTS, resolve?: Resolver) {
  return defineTool({
    name: "web_fetch",
    description: "Fetch a public http(s) page; HTML comes back as Markdown (main content), other text as is.",
    schema,
    mutates: false,
    reachesNetwork: true,
    subject: { kind: "text", of: (input) => input.url },
    asks: (input) => ({ verb: "fetch", what: input.url }),
    defaultDecision: "ask",
    async execute(input, ctx) {
      // Loaded at the first fetch: it brings node:http, node:dns and node:zlib, which start-up does without.
      const { fetchPage } = await import("../net/fetch-page.ts");
      const page = await fetchPage(input.url, { ...options, maxRedirects: MAX_REDIRECTS }, ctx.signal, resolve);
      const type = page.contentType.split(";")[0]!.trim().toLowerCase();
      const text = decode(page.body, page.contentType);
      const html = type === "text/html" || type === "application/xhtml+xml" || (type === "" && /^\s*(<!doctype html|<html)/i.test(text));
      const textual = html || type === "" || type.startsWith("text/") || /[+/](json|xml|javascript|yaml|toml)$/.test(type) || type === "application/x-ndjson";
      if (!textual || looksBinary(page.body.subarray(0, 8000))) {
        throw new ToolError(`web_fetch: ${page.url} is ${type || "binary data"}, not text, so it is not shown.`);
      }
      let title: string | undefined;
      let content = text;
      if (html) {
        const { htmlToMarkdown } = await import("../net/html-markdown.ts");
        ({ title, markdown: content } = htmlToMarkdown(text, page.url));
      }
      const head = [`${page.url} (HTTP ${page.status}${type ? `, ${type}` : ""})`, ...(page.url !== input.url ? [`(redirected from ${input.url})`] : []), ...(title ? [`# ${title}`] : [])];
      const cut = page.cut ? `\n\n[web_fetch: the page was cut at ${Math.round(options.maxBytes / 1024)} KB]` : "";
      return { output: `${head.join("\n")}\n\n${content.trim()}${cut}`, summary: `HTTP ${page.status}${html ? " · markdown" : ""}${page.cut ? " · cut" : ""}` };
    },
  });
}

export const webFetchTool = createWebFetchTool();

/** The text of a body: the charset the header names, else the one a page's <meta> names, else UTF-8. */
function decode(bytes: Uint8Array, contentType: string): string {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 2048));
  const charset = /charset\s*=\s*"?([^\s;"]+)/i.exec(contentType)?.[1] ?? /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
  try {
    return new TextDecoder((charset ?? "utf-8") as "utf-8").decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}
