/** The most pages of one list (tools, prompts, resources) read from a server. */
export const MAX_LIST_PAGES = 100;

/**
 * Every item of a server's paged list (`tools/list`, `prompts/list`, `resources/list`): pages are
 * asked for while the server gives a next cursor, but never a cursor it gave already and never
 * more than MAX_LIST_PAGES, so a server that pages forever (by mistake or on purpose) cannot hold
 * the connection in a loop or fill the memory.
 */
export async function allPages<T>(page: (cursor: string | undefined) => Promise<{ items: readonly T[]; nextCursor?: string | undefined }>): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let n = 0; n < MAX_LIST_PAGES; n++) {
    const got = await page(cursor);
    items.push(...got.items);
    cursor = got.nextCursor;
    if (!cursor || seen.has(cursor)) break;
    seen.add(cursor);
  }
  return items;
}
