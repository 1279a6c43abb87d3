// Child process for the ownership test: holds a session until killed.
// Usage: bun hold-lock.ts <home> <id>
import { acquireSession } from "../../../lib/sessions/ownership.ts";

const [home, id] = process.argv.slice(2) as [string, string];
const claimed = acquireSession(home, id);
process.stdout.write(claimed.ok ? "held\n" : `busy ${claimed.holderPid}\n`);
setInterval(() => {}, 1000);
