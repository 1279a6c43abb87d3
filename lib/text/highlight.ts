/**
 * Syntax highlighting for fenced code blocks, through highlight.js (core plus a fixed set of
 * common languages; see docs/interactive.md for why this library). The library is loaded with a
 * synchronous require on the first code block, not at start-up, so `--version`, `--help` and
 * headless runs never evaluate it. Pure apart from that one load.
 */

/** What a token is, as far as colouring goes; the terminal edge picks a colour for each. */
export type TokenKind = "keyword" | "string" | "comment" | "number" | "title" | "type" | "attr" | "meta" | "addition" | "deletion";

/** Colours one token; the identity function means no colour. */
export type TokenStyle = (kind: TokenKind, text: string) => string;

type Hljs = {
  getLanguage(name: string): unknown;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string };
};

let loaded: Hljs | null | undefined;

/** highlight.js with its languages registered, or null when it cannot be loaded (the code is then shown plain). */
function library(): Hljs | null {
  if (loaded !== undefined) return loaded;
  try {
    // Static strings, so the bundler puts each module in the binary; evaluated only here.
    const hljs = require("highlight.js/lib/core");
    const languages: Record<string, unknown> = {
      bash: require("highlight.js/lib/languages/bash"),
      c: require("highlight.js/lib/languages/c"),
      cpp: require("highlight.js/lib/languages/cpp"),
      css: require("highlight.js/lib/languages/css"),
      diff: require("highlight.js/lib/languages/diff"),
      go: require("highlight.js/lib/languages/go"),
      ini: require("highlight.js/lib/languages/ini"),
      java: require("highlight.js/lib/languages/java"),
      javascript: require("highlight.js/lib/languages/javascript"),
      json: require("highlight.js/lib/languages/json"),
      python: require("highlight.js/lib/languages/python"),
      ruby: require("highlight.js/lib/languages/ruby"),
      rust: require("highlight.js/lib/languages/rust"),
      shell: require("highlight.js/lib/languages/shell"),
      sql: require("highlight.js/lib/languages/sql"),
      typescript: require("highlight.js/lib/languages/typescript"),
      xml: require("highlight.js/lib/languages/xml"),
      yaml: require("highlight.js/lib/languages/yaml"),
    };
    for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);
    loaded = hljs as Hljs;
  } catch {
    loaded = null;
  }
  return loaded;
}

/** Names a fence may use that highlight.js knows under another (its own aliases are resolved by it). */
const ALIASES: Record<string, string> = { sh: "bash", zsh: "bash", console: "shell", toml: "ini", html: "xml", jsonc: "json", tsx: "typescript", jsx: "javascript" };

/** True when `lang` (a fence's info word) is one the highlighter knows. */
export function knowsLanguage(lang: string): boolean {
  const hljs = lang ? library() : null;
  return Boolean(hljs?.getLanguage(ALIASES[lang.toLowerCase()] ?? lang.toLowerCase()));
}

/**
 * `code` highlighted as `lang`, one string per line (as many as `code` has), or undefined when
 * the language is unknown or the library is missing. Never throws.
 */
export function highlightCode(code: string, lang: string, style: TokenStyle): string[] | undefined {
  const hljs = lang ? library() : null;
  const name = ALIASES[lang.toLowerCase()] ?? lang.toLowerCase();
  if (!hljs?.getLanguage(name)) return undefined;
  try {
    return htmlToLines(hljs.highlight(code, { language: name, ignoreIllegals: true }).value, style);
  } catch {
    return undefined;
  }
}

const KIND_OF_CLASS: Record<string, TokenKind> = {
  keyword: "keyword",
  "selector-tag": "keyword",
  built_in: "type",
  type: "type",
  class: "type",
  literal: "number",
  number: "number",
  string: "string",
  regexp: "string",
  symbol: "string",
  char: "string",
  comment: "comment",
  doc: "comment",
  quote: "comment",
  meta: "meta",
  title: "title",
  section: "title",
  name: "title",
  tag: "title",
  attr: "attr",
  attribute: "attr",
  property: "attr",
  variable: "attr",
  "template-variable": "attr",
  addition: "addition",
  deletion: "deletion",
};

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };

/**
 * highlight.js's output (text with `<span class="hljs-…">` around tokens, entities escaped)
 * as styled lines. Spans nest; the innermost one with a known kind colours its text. A span open
 * at a line break is carried to the next line, so each line is styled on its own.
 */
function htmlToLines(html: string, style: TokenStyle): string[] {
  const lines: string[] = [""];
  const stack: (TokenKind | undefined)[] = [];
  const emit = (text: string) => {
    const kind = stack.findLast((k) => k !== undefined);
    text.split("\n").forEach((piece, i) => {
      if (i > 0) lines.push("");
      if (piece) lines[lines.length - 1] += kind ? style(kind, piece) : piece;
    });
  };
  for (const token of html.split(/(<span class="[^"]*">|<\/span>)/)) {
    if (token.startsWith("<span")) {
      const classes = /class="([^"]*)"/.exec(token)![1]!.split(/\s+/).map((c) => c.replace(/^hljs-/, "").replace(/_$/, ""));
      stack.push(classes.map((c) => KIND_OF_CLASS[c] ?? KIND_OF_CLASS[c.split(".")[0]!]).find((k) => k !== undefined));
    } else if (token === "</span>") stack.pop();
    else if (token) emit(token.replace(/&(?:lt|gt|amp|quot|#x27|#39);/g, (entity) => ENTITIES[entity]!));
  }
  return lines;
}
