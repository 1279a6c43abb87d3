import { expect, test } from "bun:test";
import { createRepeatTracker, stableJson } from "../../lib/permissions/repeat-guard.ts";

const read = { name: "read_file", mutates: false };
const bash = { name: "bash", mutates: true };

test("counts identical calls; key order in the input does not matter", () => {
  const tracker = createRepeatTracker();
  expect(tracker.record(read, { path: "a", offset: 1 })).toBe(1);
  expect(tracker.record(read, { offset: 1, path: "a" })).toBe(2);
  expect(tracker.record(read, { path: "a" })).toBe(1);
  expect(tracker.record({ name: "grep", mutates: false }, { path: "a", offset: 1 })).toBe(1);
  expect(tracker.record(read, { path: "a", offset: 1 })).toBe(3);
});

test("reset() starts a new turn", () => {
  const tracker = createRepeatTracker();
  tracker.record(bash, { command: "ls" });
  tracker.record(bash, { command: "ls" });
  tracker.reset();
  expect(tracker.record(bash, { command: "ls" })).toBe(1);
});

test("a different mutating call restarts the other counts; a read does not", () => {
  const tracker = createRepeatTracker();
  tracker.record(bash, { command: "bun test" });
  tracker.record(read, { path: "a" });
  expect(tracker.record(bash, { command: "bun test" })).toBe(2);
  tracker.record({ name: "edit_file", mutates: true }, { path: "a" });
  expect(tracker.record(bash, { command: "bun test" })).toBe(1);
});

test("stableJson sorts keys at every level", () => {
  expect(stableJson({ b: 1, a: { d: [{ y: 1, x: 2 }], c: 3 } })).toBe('{"a":{"c":3,"d":[{"x":2,"y":1}]},"b":1}');
  expect(stableJson(undefined)).toBe("undefined");
});
