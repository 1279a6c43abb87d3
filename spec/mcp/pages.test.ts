// A server's paged lists (tools, prompts, resources) are read page by page (lib/mcp/pages.ts);
// a server that pages forever, by a cursor it repeats or by new ones without end, is read to a bound.
import { expect, test } from "bun:test";
import { allPages, MAX_LIST_PAGES } from "../../lib/mcp/pages.ts";

test("every page is read while the server gives a next cursor", async () => {
  const asked: (string | undefined)[] = [];
  const items = await allPages(async (cursor) => {
    asked.push(cursor);
    return cursor === undefined ? { items: [1, 2], nextCursor: "b" } : cursor === "b" ? { items: [3], nextCursor: "c" } : { items: [4] };
  });
  expect(items).toEqual([1, 2, 3, 4]);
  expect(asked).toEqual([undefined, "b", "c"]);
});

test("a cursor the server gave already ends the list; so does the page bound when every cursor is new", async () => {
  let calls = 0;
  const repeating = await allPages(async () => (calls++, { items: ["x"], nextCursor: "same" }));
  expect(calls).toBe(2);
  expect(repeating).toEqual(["x", "x"]);
  let n = 0;
  const endless = await allPages(async () => ({ items: [n], nextCursor: `page-${++n}` }));
  expect(endless).toHaveLength(MAX_LIST_PAGES);
});
