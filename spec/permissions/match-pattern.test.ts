import { describe, expect, test } from "bun:test";
import { matchPattern } from "../../lib/permissions/match-pattern.ts";

describe("matchPattern", () => {
  test("* matches any run of characters, slashes and nothing included", () => {
    expect(matchPattern("git *", "git status")).toBe(true);
    expect(matchPattern("src/*", "src/a/b/c.ts")).toBe(true);
    expect(matchPattern("*.ts", "a.ts")).toBe(true);
    expect(matchPattern("*", "")).toBe(true);
    expect(matchPattern("git status*", "git status")).toBe(true);
    expect(matchPattern("git *", "git")).toBe(false);
  });

  test("? matches exactly one character", () => {
    expect(matchPattern("a?c", "abc")).toBe(true);
    expect(matchPattern("a?c", "a/c")).toBe(true);
    expect(matchPattern("a?c", "ac")).toBe(false);
    expect(matchPattern("a?c", "abbc")).toBe(false);
  });

  test("every other character is literal, regex specials included", () => {
    expect(matchPattern("a.ts", "a.ts")).toBe(true);
    expect(matchPattern("a.ts", "axts")).toBe(false);
    expect(matchPattern("f(x)+[y]{2}|$^\\", "f(x)+[y]{2}|$^\\")).toBe(true);
    expect(matchPattern("[ab]", "a")).toBe(false);
    expect(matchPattern("a+", "aa")).toBe(false);
    expect(matchPattern("x-y/z", "x-y/z")).toBe(true);
  });

  test("the whole subject must match, case-sensitively", () => {
    expect(matchPattern("git", "git status")).toBe(false);
    expect(matchPattern("status", "git status")).toBe(false);
    expect(matchPattern("Git *", "git status")).toBe(false);
    expect(matchPattern("a\nb", "a\nb")).toBe(true);
    expect(matchPattern("*", "multi\nline")).toBe(true);
  });
});
