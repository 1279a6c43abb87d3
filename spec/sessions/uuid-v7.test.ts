import { expect, test } from "bun:test";
import { uuidV7, uuidV7Time } from "../../lib/sessions/uuid-v7.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("ids are version-7 UUIDs that carry their creation time", () => {
  const at = Date.UTC(2026, 10, 29, 12, 0, 0, 123);
  const id = uuidV7({ now: () => at });
  expect(id).toMatch(UUID);
  expect(uuidV7Time(id)).toBe(at);
});

test("ids made later sort later as plain strings", () => {
  const start = Date.UTC(2026, 0, 1);
  const ids = Array.from({ length: 500 }, (_, i) => uuidV7({ now: () => start + i * 7 }));
  expect([...ids].sort()).toEqual(ids);
});

test("ids made in the same millisecond are unique", () => {
  const ids = new Set(Array.from({ length: 10_000 }, () => uuidV7({ now: () => 1_800_000_000_000 })));
  expect(ids.size).toBe(10_000);
});

test("the clock and random source are injectable, for deterministic ids", () => {
  const zeros = uuidV7({ now: () => 0, random: (n) => new Uint8Array(n) });
  expect(zeros).toBe("00000000-0000-7000-8000-000000000000");
  const ones = uuidV7({ now: () => 2 ** 48 - 1, random: (n) => new Uint8Array(n).fill(0xff) });
  expect(ones).toBe("ffffffff-ffff-7fff-bfff-ffffffffffff");
  expect(() => uuidV7({ now: () => -1 })).toThrow(RangeError);
});
