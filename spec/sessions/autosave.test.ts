import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { AUTOSAVE_DEBOUNCE_MS, createAutosaver, type Timers } from "../../lib/sessions/autosave.ts";
import { openLiveSession } from "../../lib/sessions/live-session.ts";
import { sessionPath } from "../../lib/sessions/paths.ts";
import { tempDir } from "../support/cli.ts";

/** Timers driven by hand: advance(ms) runs whatever has come due. */
function fakeTimers() {
  let now = 0;
  let nextId = 1;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      const id = nextId++;
      pending.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (id) => void pending.delete(id as number),
  };
  return {
    timers,
    get armed() {
      return pending.size;
    },
    advance(ms: number) {
      now += ms;
      for (const [id, timer] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
        if (timer.at > now) continue;
        pending.delete(id);
        timer.fn();
      }
    },
  };
}

test("the default debounce is the spec's 400 ms", () => {
  expect(AUTOSAVE_DEBOUNCE_MS).toBe(400);
});

test("many changes within 400 ms are one write, made on the timer rather than in the step", () => {
  const clock = fakeTimers();
  let writes = 0;
  const saver = createAutosaver({ save: () => writes++, timers: clock.timers });
  for (let step = 0; step < 30; step++) {
    saver.schedule();
    clock.advance(10);
  }
  expect(writes).toBe(0); // nothing written inside the steps themselves
  clock.advance(AUTOSAVE_DEBOUNCE_MS);
  expect(writes).toBe(1);
  expect(saver.pending).toBe(false);
  clock.advance(10_000);
  expect(writes).toBe(1);
});

test("a loop that never pauses still saves every 400 ms instead of never", () => {
  const clock = fakeTimers();
  let writes = 0;
  const saver = createAutosaver({ save: () => writes++, timers: clock.timers });
  for (let step = 0; step < 40; step++) {
    saver.schedule();
    clock.advance(100); // 4 s of steps, 100 ms apart
  }
  expect(writes).toBe(10);
});

test("flush writes synchronously, once, and cancels the timer", () => {
  const clock = fakeTimers();
  const log: string[] = [];
  const saver = createAutosaver({ save: () => log.push("write"), timers: clock.timers });
  saver.schedule();
  log.push("before");
  expect(saver.flush()).toBe(true);
  log.push("after");
  expect(log).toEqual(["before", "write", "after"]);
  expect(clock.armed).toBe(0);
  expect(saver.flush()).toBe(false); // nothing pending
  clock.advance(1000);
  expect(log).toEqual(["before", "write", "after"]);
});

test("nothing is written while shouldSave says no (an empty session)", () => {
  const clock = fakeTimers();
  let writes = 0;
  let messages = 0;
  const saver = createAutosaver({ save: () => writes++, shouldSave: () => messages > 0, timers: clock.timers });
  saver.schedule();
  clock.advance(1000);
  expect(saver.flush()).toBe(false);
  expect(writes).toBe(0);
  messages = 1;
  saver.schedule();
  expect(saver.flush()).toBe(true);
  expect(writes).toBe(1);
});

test("a failed timed save is reported and retried on the next change; flush throws it", () => {
  const clock = fakeTimers();
  const errors: unknown[] = [];
  let fail = true;
  let writes = 0;
  const saver = createAutosaver({
    save: () => {
      if (fail) throw new Error("disk full");
      writes++;
    },
    timers: clock.timers,
    onError: (e) => errors.push(e),
  });
  saver.schedule();
  clock.advance(400);
  expect(errors).toHaveLength(1);
  expect(saver.pending).toBe(true);
  expect(() => saver.flush()).toThrow("disk full");
  fail = false;
  expect(saver.flush()).toBe(true);
  expect(writes).toBe(1);
});

test("dispose cancels a pending write and ignores later changes", () => {
  const clock = fakeTimers();
  let writes = 0;
  const saver = createAutosaver({ save: () => writes++, timers: clock.timers });
  saver.schedule();
  saver.dispose();
  saver.schedule();
  clock.advance(1000);
  expect(saver.flush()).toBe(false);
  expect(writes).toBe(0);
});

test("with real timers: a burst of steps is written once, about 400 ms after the first", async () => {
  let writes = 0;
  const saver = createAutosaver({ save: () => writes++ });
  const start = performance.now();
  for (let i = 0; i < 20; i++) {
    saver.schedule();
    await Bun.sleep(5);
  }
  expect(writes).toBe(0);
  while (writes === 0 && performance.now() - start < 2000) await Bun.sleep(10);
  const elapsed = performance.now() - start;
  expect(writes).toBe(1);
  expect(elapsed).toBeGreaterThanOrEqual(390);
  expect(elapsed).toBeLessThan(1000);
});

test("a live session with no messages is never written, even on close; one with a message is", () => {
  const home = tempDir();
  const empty = openLiveSession({ home, cwd: "/p", provider: "openai", model: "gpt-5" });
  empty.touch();
  expect(empty.save()).toBe(false);
  empty.close();
  expect(existsSync(sessionPath(home, empty.id))).toBe(false);
  expect(empty.exitMessage()).toBe("Good bye.\nNo messages were saved, so there is nothing to resume.\n");

  const live = openLiveSession({ home, cwd: "/p", provider: "openai", model: "gpt-5" });
  live.append([{ role: "user", content: "hello" }]);
  live.close();
  expect(JSON.parse(readFileSync(sessionPath(home, live.id), "utf8")).messages).toEqual([{ role: "user", content: "hello" }]);
});
