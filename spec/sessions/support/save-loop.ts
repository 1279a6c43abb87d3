// Child process for the crash test: saves a large session over and over until killed.
// Usage: bun save-loop.ts <home> <id>
import { saveSession } from "../../../lib/sessions/store.ts";
import { makeRecord } from "./fixtures.ts";

const [home, id] = process.argv.slice(2) as [string, string];
const record = { ...makeRecord({ messageCount: 2000 }), id };
for (let i = 0; ; i++) {
  saveSession(home, { ...record, title: `save ${i}`, inputTokens: i });
  if (i === 0) process.stdout.write("saved\n");
}
