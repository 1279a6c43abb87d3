// A process that saves a growing session through the thread pool, step after step, until it is
// killed (spec/sessions/session-file.test.ts kills it at random moments). Its first argument is
// the shiro home; it prints the session's id once the first full save is on disk.
import type { ModelMessage } from "ai";
import { sessionPath } from "../../../lib/sessions/paths.ts";
import { openSessionFile } from "../../../lib/sessions/session-file.ts";
import { makeRecord } from "./fixtures.ts";

const home = process.argv[2]!;
let record = makeRecord({ messageCount: 400 });
const file = openSessionFile(sessionPath(home, record.id));
file.saveSync(record);
console.log(record.id);
for (let i = 0; ; i++) {
  const id = `call_kill_${i}`;
  const step: ModelMessage[] = [
    { role: "assistant", content: [{ type: "tool-call", toolCallId: id, toolName: "bash", input: { command: `echo ${i}` } }] },
    { role: "tool", content: [{ type: "tool-result", toolCallId: id, toolName: "bash", output: { type: "text", value: `${i}\n`.repeat(200) } }] },
  ];
  record = { ...record, messages: [...record.messages, ...step], outputTokens: record.outputTokens + 10 };
  await file.saveInBackground(record, { durable: i % 2 === 0, commit: () => true });
}
