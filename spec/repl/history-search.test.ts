import { describe, expect, test } from "bun:test";
import { searchFor, searchLabel, searchMatch, searchOlder, startSearch } from "../../lib/prompt/history-search.ts";

const ENTRIES = ["fix the login test", "run the build", "Fix the logout bug", "explain the build", "fix the login test"];

describe("reverse history search", () => {
  test("typing finds the newest prompt containing the text, ignoring case, and narrows as it goes", () => {
    let s = searchFor(startSearch(ENTRIES), "b");
    expect(searchMatch(s)).toBe("explain the build");
    s = searchFor(s, "bu");
    s = searchFor(s, "bug");
    expect(searchMatch(s)).toBe("Fix the logout bug");
    expect(searchLabel(s)).toBe("(reverse-i-search)'bug': ");
  });

  test("ctrl-r steps to older matches, skipping a repeat of the one shown, and fails at the oldest", () => {
    let s = searchFor(startSearch(ENTRIES), "fix");
    expect(s.index).toBe(4);
    s = searchOlder(s);
    expect(searchMatch(s)).toBe("Fix the logout bug");
    s = searchOlder(s);
    expect(s.index).toBe(0);
    s = searchOlder(s);
    expect(s.index).toBe(0);
    expect(s.failing).toBe(true);
    expect(searchLabel(s)).toBe("(failing reverse-i-search)'fix': ");
  });

  test("a query nothing contains keeps the last match and fails; taking a letter back searches again from the newest", () => {
    let s = searchFor(startSearch(ENTRIES), "build");
    s = searchFor(s, "buildx");
    expect(s.failing).toBe(true);
    expect(searchMatch(s)).toBe("explain the build");
    s = searchFor(s, "buil");
    expect(s.failing).toBe(false);
    expect(searchMatch(s)).toBe("explain the build");
  });

  test("an empty query or empty history matches nothing", () => {
    expect(searchMatch(startSearch(ENTRIES))).toBeUndefined();
    expect(searchMatch(searchOlder(startSearch(ENTRIES)))).toBeUndefined();
    const s = searchFor(startSearch([]), "x");
    expect(searchMatch(s)).toBeUndefined();
    expect(s.failing).toBe(true);
  });
});
