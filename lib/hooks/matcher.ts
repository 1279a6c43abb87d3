/**
 * A matcher as Claude Code reads it: empty or `*` matches everything; one made only of letters,
 * digits, `_`, `-`, spaces, `,` and `|` is an exact name or a list of them; anything else is an
 * unanchored, case-sensitive regular expression. `values` are the spellings the subject goes by
 * (a tool's Claude Code name and shiro's own), any of which may match.
 */
export function matcherMatches(matcher: string | undefined, values: readonly string[]): boolean {
  const text = matcher?.trim() ?? "";
  if (text === "" || text === "*") return true;
  if (isNameList(text)) {
    const names = text.split(/[|,]/).map((name) => name.trim()).filter((name) => name !== "");
    return values.some((value) => names.includes(value));
  }
  const pattern = compileMatcher(text);
  return pattern !== undefined && values.some((value) => pattern.test(value));
}

function isNameList(text: string): boolean {
  return /^[A-Za-z0-9_\- ,|]+$/.test(text);
}

/** The regular expression of a matcher that is one, or undefined when it does not compile. */
export function compileMatcher(text: string): RegExp | undefined {
  try {
    return new RegExp(text);
  } catch {
    return undefined;
  }
}

/** Why a matcher can never match (a broken regular expression), or undefined when it is fine. */
export function matcherProblem(matcher: string | undefined): string | undefined {
  const text = matcher?.trim() ?? "";
  if (text === "" || text === "*" || isNameList(text)) return undefined;
  try {
    new RegExp(text);
    return undefined;
  } catch (error) {
    return `matcher ${JSON.stringify(text)} is not a valid regular expression (${(error as Error).message})`;
  }
}
