/**
 * A separate shiro-like process for the concurrency spec: waits for the go file (so every child
 * starts together), then remembers `count` distinct notes as fast as it can, then recalls them.
 * argv: home projectRoot goFile label count
 */
import { existsSync } from "node:fs";
import { createMemoryStore } from "../../../lib/memory/store.ts";
import { rememberNote } from "../../../lib/memory/remember.ts";
import { recallNotes } from "../../../lib/memory/recall.ts";

const [home, projectRoot, goFile, label, count] = process.argv.slice(2) as [string, string, string, string, string];
const store = createMemoryStore({ home, projectRoot });
while (!existsSync(goFile)) await Bun.sleep(2);
for (let i = 0; i < Number(count); i++) {
  const result = await rememberNote(store, { kind: "fact", text: `${label} fact number ${i}` });
  if (!result.ok) {
    console.error(result.message);
    process.exit(1);
  }
}
const recalled = await recallNotes(store, `${label} fact`);
if (!recalled.ok || recalled.matched !== Number(count)) process.exit(2);
