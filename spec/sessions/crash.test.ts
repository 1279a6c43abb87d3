import { expect, test } from "bun:test";
import { join } from "node:path";
import { listSessions } from "../../lib/sessions/list.ts";
import { loadSession } from "../../lib/sessions/store.ts";
import { sweepLeftovers } from "../../lib/sessions/sweep.ts";
import { tempDir } from "../support/cli.ts";

const KILLS = 20;

test("kill -9 at random moments while a 2,000-message session is saved in a loop: the file always parses", async () => {
  const home = tempDir();
  const id = Bun.randomUUIDv7();
  const script = join(import.meta.dir, "support", "save-loop.ts");
  const seen = new Set<string>();
  for (let round = 0; round < KILLS; round++) {
    const child = Bun.spawn([process.execPath, script, home, id], { stdout: "pipe", stderr: "inherit" });
    const reader = child.stdout.getReader();
    await reader.read(); // "saved": at least one complete file exists
    reader.releaseLock();
    await Bun.sleep(Math.random() * 60);
    child.kill("SIGKILL");
    expect(await child.exited).not.toBe(0);

    const loaded = loadSession(home, id);
    expect(loaded.status).toBe("ok");
    if (loaded.status !== "ok") throw new Error(`round ${round}: ${JSON.stringify(loaded)}`);
    expect(loaded.record.messages).toHaveLength(2000);
    expect(loaded.record.title).toMatch(/^save \d+$/);
    seen.add(loaded.record.title);
    expect(listSessions(home).warnings).toEqual([]);
  }
  // The kills landed at different points of the loop, not all before the first rewrite.
  expect(seen.size).toBeGreaterThan(1);
  // Temp files of interrupted writes are tidied up later, and never mistaken for sessions.
  sweepLeftovers(home);
  expect(listSessions(home).allIds).toEqual([id]);
}, 60_000);
