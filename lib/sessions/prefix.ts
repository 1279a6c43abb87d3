/** Shortest prefix ever shown: the first 8 hex digits of a UUIDv7 are a timestamp shared for ~65 s. */
export const MIN_PREFIX_HEX = 8;

/**
 * Shortest prefix of an id shown for later use (the exit message, `resumed session …`): the first
 * 12 hex digits are the UUIDv7's whole millisecond timestamp, so sessions started later do not
 * come to share it, as they do the first 8 within a minute.
 */
export const LASTING_PREFIX_HEX = 12;

/** An id or typed prefix reduced to what is compared: lower-case hex digits, dashes dropped. */
export function hexDigits(idOrPrefix: string): string {
  return idOrPrefix.toLowerCase().replace(/-/g, "");
}

/**
 * The shortest prefix of `id` that no other id in `allIds` shares, with at least `min` hex
 * digits. Counted in hex digits, then cut from the id as written, so the result keeps its
 * dashes and never ends on one ("0193ab2c-7f", not "0193ab2c-"). Pure; `allIds` may include `id`.
 */
export function shortestUniquePrefix(id: string, allIds: readonly string[], min = MIN_PREFIX_HEX): string {
  const hex = hexDigits(id);
  let needed = Math.min(min, hex.length);
  for (const other of allIds) {
    if (other === id) continue;
    const otherHex = hexDigits(other);
    let common = 0;
    while (common < hex.length && hex[common] === otherHex[common]) common++;
    needed = Math.max(needed, Math.min(common + 1, hex.length));
  }
  return cutAfterHexDigits(id, needed);
}

function cutAfterHexDigits(id: string, digits: number): string {
  let seen = 0;
  for (let i = 0; i < id.length; i++) {
    if (id[i] !== "-") seen++;
    if (seen === digits) return id.slice(0, i + 1);
  }
  return id;
}

/**
 * A prefix of `id` to print for the user to type later (`shiro -r …`): unique among `allIds` now,
 * and with the whole timestamp (LASTING_PREFIX_HEX), so it stays unique as new sessions are saved.
 */
export function lastingPrefix(id: string, allIds: readonly string[]): string {
  return shortestUniquePrefix(id, allIds.includes(id) ? allIds : [...allIds, id], LASTING_PREFIX_HEX);
}
