/**
 * Permission pattern syntax: `*` matches any run of characters (including `/` and none at all),
 * `?` matches exactly one character, every other character matches itself (`.`, `+`, `(`, `[`
 * and the rest are literal). The whole subject must match, case-sensitively.
 */
export function matchPattern(pattern: string, subject: string): boolean {
  return patternToRegExp(pattern).test(subject);
}

const cache = new Map<string, RegExp>();

/** The anchored regular expression for a pattern. Cached: rules are matched on every call. */
export function patternToRegExp(pattern: string): RegExp {
  let regexp = cache.get(pattern);
  if (!regexp) {
    let source = "";
    for (const char of pattern) {
      if (char === "*") source += "[\\s\\S]*";
      else if (char === "?") source += "[\\s\\S]";
      else source += char.replace(/[\\^$.|+()[\]{}\/]/g, "\\$&");
    }
    regexp = new RegExp(`^${source}$`, "u");
    cache.set(pattern, regexp);
  }
  return regexp;
}
