import { expect, test } from "bun:test";
import { fitRowOrBreak, joinFitting, wrapParts } from "../../lib/text/fit-parts.ts";

const SEP = " · ";

test("parts break between each other, never inside one; a part wider than a row is shortened, a path in its middle", () => {
  const parts = [{ text: "shiro 0.2.0" }, { text: "accounts/fireworks/models/qwen3-coder", path: true }, { text: "default agent, thinking medium" }];
  expect(joinFitting(parts, SEP, 200)).toEqual(["shiro 0.2.0 · accounts/fireworks/models/qwen3-coder · default agent, thinking medium"]);
  expect(joinFitting(parts, SEP, 60)).toEqual(["shiro 0.2.0 · accounts/fireworks/models/qwen3-coder", "default agent, thinking medium"]);
  expect(joinFitting(parts, SEP, 24)).toEqual(["shiro 0.2.0", "accounts/…/qwen3-coder", "default agent, thinking…"]);
  expect(joinFitting([{ text: "a", paint: (t) => `<${t}>` }, { text: "b" }], SEP, 10, (s) => `[${s}]`)).toEqual(["<a>[ · ]b"]);
});

test("paths are shortened, longest first, to keep one row; when that cannot be, the row breaks and each path is shortened only as far as its own row needs", () => {
  const docs = [{ text: "AGENTS.md", path: true, lead: "instructions from " }, { text: "projects/portal/packages/billing/CLAUDE.md", path: true }];
  expect(fitRowOrBreak(docs, SEP, 60)).toEqual(["instructions from AGENTS.md · projects/…/billing/CLAUDE.md"]);
  expect(fitRowOrBreak(docs, SEP, 42)).toEqual(["instructions from AGENTS.md · …/CLAUDE.md"]);
  expect(fitRowOrBreak(docs, SEP, 30)).toEqual(["instructions from AGENTS.md", "projects/…/billing/CLAUDE.md"]);
});

test("prose breaks between its parts, a part too wide wraps at its spaces, and no row ends with the separator", () => {
  expect(wrapParts("sandbox on: commands write only to the workspace · network on", 50)).toEqual(["sandbox on: commands write only to the workspace", "network on"]);
  expect(wrapParts("edits and commands ask (read-only commands run): y once · a always · n deny", 40)).toEqual(["edits and commands ask (read-only", "commands run): y once · a always", "n deny"]);
  expect(wrapParts("short · line", 40)).toEqual(["short · line"]);
});

test("a glued part stays with the path before it, on a row of their own, the path shortened only if it must", () => {
  const parts = [{ text: "window 400,000 tokens" }, { text: "~/work/projects/portal/billing", path: true }, { text: "new session", glue: true }];
  expect(joinFitting(parts, SEP, 80)).toEqual(["window 400,000 tokens · ~/work/projects/portal/billing · new session"]);
  expect(joinFitting(parts, SEP, 60)).toEqual(["window 400,000 tokens", "~/work/projects/portal/billing · new session"]);
  expect(joinFitting(parts, SEP, 35)).toEqual(["window 400,000 tokens", "~/…/portal/billing · new session"]);
  expect(joinFitting(parts, SEP, 22)).toEqual(["window 400,000 tokens", "~/…/portal/billing", "new session"]); // no room beside it even at …/billing
});
