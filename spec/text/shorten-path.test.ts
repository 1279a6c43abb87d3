import { expect, test } from "bun:test";
import { cutMiddle, shortenPath } from "../../lib/text/shorten-path.ts";

test("a path that fits is left alone; a longer one keeps its head and as many last folders as fit", () => {
  const cwd = "~/projects/customer-portal-monorepo/packages/billing-service-integration";
  expect(shortenPath(cwd, 200)).toBe(cwd);
  expect(shortenPath(cwd, 60)).toBe("~/…/packages/billing-service-integration");
  expect(shortenPath(cwd, 39)).toBe("~/…/billing-service-integration");
  expect(shortenPath("/tmp/a/b/c/deeply-nested-folder", 26)).toBe("/…/c/deeply-nested-folder");
  expect(shortenPath("accounts/fireworks/models/qwen3-coder-480b-a35b-instruct", 45)).toBe("accounts/…/qwen3-coder-480b-a35b-instruct");
});

test("when not even the last folder fits, the text is cut in its middle; never wider than asked", () => {
  expect(shortenPath("~/x/billing-service-integration", 29)).toBe("…/billing-service-integration");
  expect(shortenPath("~/x/billing-service-integration", 20)).toBe("~/x/billin…tegration");
  for (const width of [1, 2, 5, 13, 30]) expect(Bun.stringWidth(shortenPath("~/x/billing-service-integration/日本語のフォルダ", width))).toBeLessThanOrEqual(width);
  expect(cutMiddle("abcdefghij", 5)).toBe("ab…ij");
  expect(cutMiddle("abc", 5)).toBe("abc");
});
