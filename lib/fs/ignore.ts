/**
 * gitignore patterns, parsed into rules and matched against paths. Pure: no file system here
 * (ignore-filter.ts loads the files). Supported: comments, blank lines, `\` escapes, `!` negation,
 * `dir/` (directories only), anchoring (a leading or middle `/`), `*`, `?`, `[...]`, and `**`
 * leading (`**\/x`), trailing (`x/**`) and in the middle (`a/**\/b`).
 */
export type IgnoreRule = {
  /** The pattern as written (after trimming), for messages and tests. */
  source: string;
  negate: boolean;
  dirOnly: boolean;
  /** Matches a "/"-separated path relative to the directory holding the .gitignore. */
  regex: RegExp;
};

export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const line of text.split("\n")) {
    const rule = parseIgnoreLine(line);
    if (rule) rules.push(rule);
  }
  return rules;
}

/** One line of a .gitignore; undefined for blank lines and comments. */
export function parseIgnoreLine(line: string): IgnoreRule | undefined {
  let pattern = trimUnescapedTrailingSpaces(line.replace(/\r$/, ""));
  if (pattern === "" || pattern.startsWith("#")) return undefined;
  const source = pattern;
  const negate = pattern.startsWith("!");
  if (negate) pattern = pattern.slice(1);
  const dirOnly = pattern.endsWith("/");
  pattern = pattern.replace(/\/+$/, "");
  if (pattern === "") return undefined;
  // A slash anywhere but the end ties the pattern to this directory; otherwise it matches at any depth.
  const anchored = pattern.includes("/");
  if (pattern.startsWith("/")) pattern = pattern.slice(1);
  const glob = anchored || pattern.startsWith("**/") ? pattern : `**/${pattern}`;
  return { source, negate, dirOnly, regex: globToRegex(glob) };
}

/**
 * The verdict of the last rule that matches `relPath`: true = ignored, false = re-included by a
 * negation, undefined = no rule applies. Only the path itself is tested, not its parents: callers
 * walk top-down and never enter an ignored directory, which is how git treats excluded folders.
 */
export function matchIgnoreRules(rules: readonly IgnoreRule[], relPath: string, isDir: boolean): boolean | undefined {
  let verdict: boolean | undefined;
  for (const rule of rules) {
    if (rule.dirOnly && !isDir) continue;
    if (rule.regex.test(relPath)) verdict = !rule.negate;
  }
  return verdict;
}

function trimUnescapedTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === " " && line[end - 2] !== "\\") end--;
  return line.slice(0, end);
}

/** Translates a gitignore glob (already anchored) into a whole-path regular expression. */
export function globToRegex(glob: string): RegExp {
  let out = "";
  let i = 0;
  while (i < glob.length) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const startsSegment = i === 0 || glob[i - 1] === "/";
      const endsPattern = i + 2 === glob.length;
      if (startsSegment && endsPattern) {
        out += ".*";
        i += 2;
      } else if (startsSegment && glob[i + 2] === "/") {
        out += "(?:.*/)?"; // `**/`: zero or more directories
        i += 3;
      } else {
        out += "[^/]*"; // any other `**` is an ordinary `*`
        i += 2;
      }
    } else if (c === "*") {
      out += "[^/]*";
      i++;
    } else if (c === "?") {
      out += "[^/]";
      i++;
    } else if (c === "[") {
      const end = classEnd(glob, i);
      if (end === -1) {
        out += "\\[";
        i++;
      } else {
        out += classToRegex(glob.slice(i + 1, end));
        i = end + 1;
      }
    } else if (c === "\\" && i + 1 < glob.length) {
      out += escapeRegex(glob[i + 1]!);
      i += 2;
    } else {
      out += escapeRegex(c);
      i++;
    }
  }
  return new RegExp(`^${out}$`);
}

/** Index of the `]` closing the class opened at `open`, or -1 when it is never closed. */
function classEnd(glob: string, open: number): number {
  let i = open + 1;
  if (glob[i] === "!" || glob[i] === "^") i++;
  if (glob[i] === "]") i++; // a leading `]` is literal
  for (; i < glob.length; i++) {
    if (glob[i] === "\\") i++;
    else if (glob[i] === "]") return i;
  }
  return -1;
}

function classToRegex(body: string): string {
  let negated = false;
  if (body.startsWith("!") || body.startsWith("^")) {
    negated = true;
    body = body.slice(1);
  }
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === "\\" && i + 1 < body.length) out += escapeClassChar(body[++i]!);
    else if (c === "]" || c === "[" || c === "^" || c === "\\") out += `\\${c}`;
    else out += c;
  }
  // A class never matches the path separator.
  return negated ? `[^/${out}]` : `(?!/)[${out}]`;
}

function escapeClassChar(c: string): string {
  return /\w/.test(c) ? c : `\\${c}`;
}

function escapeRegex(c: string): string {
  return /[.*+?^${}()|[\]\\\/]/.test(c) ? `\\${c}` : c;
}
