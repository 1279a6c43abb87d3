/**
 * UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits, with the version and
 * variant nibbles set. Ids made in different milliseconds sort by creation time as plain
 * strings; ids made in the same millisecond are unique but in no particular order.
 */
export type UuidV7Options = {
  /** Milliseconds since the epoch. Default: Date.now. */
  now?: () => number;
  /** Fills `n` random bytes. Default: crypto.getRandomValues. */
  random?: (n: number) => Uint8Array;
};

const MAX_MS = 2 ** 48 - 1;

export function uuidV7(opts: UuidV7Options = {}): string {
  const ms = Math.floor((opts.now ?? Date.now)());
  if (!Number.isFinite(ms) || ms < 0 || ms > MAX_MS) throw new RangeError(`uuidV7: clock value ${ms} is outside 0..2^48-1`);
  const rand = opts.random ? opts.random(10) : crypto.getRandomValues(new Uint8Array(10));
  if (rand.length < 10) throw new RangeError("uuidV7: the random source must return 10 bytes");
  const bytes = new Uint8Array(16);
  // 48-bit big-endian timestamp; split because bitwise operators are 32-bit.
  const high = Math.floor(ms / 2 ** 16);
  const low = ms % 2 ** 16;
  bytes[0] = (high >>> 24) & 0xff;
  bytes[1] = (high >>> 16) & 0xff;
  bytes[2] = (high >>> 8) & 0xff;
  bytes[3] = high & 0xff;
  bytes[4] = (low >>> 8) & 0xff;
  bytes[5] = low & 0xff;
  bytes.set(rand.subarray(0, 10), 6);
  bytes[6] = 0x70 | (bytes[6]! & 0x0f); // version 7
  bytes[8] = 0x80 | (bytes[8]! & 0x3f); // variant 10xx
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The creation time encoded in a UUIDv7, in epoch milliseconds. */
export function uuidV7Time(id: string): number {
  return parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}
