import { parseHTML } from "linkedom";
import TurndownService from "turndown";

/** Never part of what a reader came for. */
const NOISE = "script, style, noscript, template, iframe, svg, canvas, form, button, nav, [role=navigation], [aria-hidden=true]";
/** Dropped too when no <main> or <article> says where the content is. */
const CHROME = "header, footer, aside, [role=banner], [role=contentinfo], [role=complementary]";

/**
 * A page as Markdown, its main content only: the first of <main>, [role=main] or <article>, else
 * <body> without its header, footer and sidebars; scripts, styles, navigation and forms dropped.
 * Links and images are made absolute against `pageUrl`. Headings are `#`, code blocks fenced
 * (with the language a `language-x` class names). Pure: no network, no DOM of the host.
 */
export function htmlToMarkdown(html: string, pageUrl: string): { title: string | undefined; markdown: string } {
  const { document } = parseHTML(html.includes("<html") ? html : `<!doctype html><html><body>${html}</body></html>`);
  const title = document.querySelector("title")?.textContent?.trim().replace(/\s+/g, " ") || undefined;
  const main = document.querySelector("main, [role=main]") ?? document.querySelector("article");
  const root = main ?? document.body ?? document.documentElement;
  for (const element of [...root.querySelectorAll(NOISE)]) element.remove();
  if (!main) for (const element of [...root.querySelectorAll(CHROME)]) element.remove();
  for (const [selector, attribute] of [["a[href]", "href"], ["img[src]", "src"]] as const) {
    for (const element of root.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute) ?? "";
      if (/^\s*javascript:/i.test(value)) element.removeAttribute(attribute);
      else {
        try {
          element.setAttribute(attribute, new URL(value, pageUrl).href);
        } catch {
          // A link that cannot be resolved stays as written.
        }
      }
    }
  }
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "_" });
  const markdown = turndown
    .turndown(root as unknown as TurndownService.Node)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title, markdown };
}
