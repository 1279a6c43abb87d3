import type { ModelMessage } from "ai";
import { newSessionRecord } from "../../../lib/sessions/record.ts";
import type { SessionRecord } from "../../../lib/sessions/schema.ts";

/** A realistic history: a prompt, then rounds of tool call, tool result and text. */
export function makeMessages(count: number, prompt = "why does the pagination test fail?"): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: "user", content: prompt }];
  for (let i = 1; messages.length < count; i++) {
    const id = `call_${i}`;
    messages.push({
      role: "assistant",
      content: [
        { type: "text", text: `Step ${i}: looking at the next file to understand the paging boundary.` },
        { type: "tool-call", toolCallId: id, toolName: "read_file", input: { path: `src/page-${i}.ts` } },
      ],
    });
    if (messages.length < count) {
      messages.push({
        role: "tool",
        content: [{ type: "tool-result", toolCallId: id, toolName: "read_file", output: { type: "text", value: `export function page${i}(items, size) {\n  return items.slice(0, size);\n}\n`.repeat(3) } }],
      });
    }
  }
  return messages.slice(0, count);
}

export type RecordOverrides = Partial<SessionRecord> & { messageCount?: number; at?: number };

/** A valid record; `at` is the creation time in epoch ms (drives the id and timestamps). */
export function makeRecord(overrides: RecordOverrides = {}): SessionRecord {
  const at = overrides.at ?? Date.now();
  const { messageCount, at: _at, ...rest } = overrides;
  const messages = overrides.messages ?? makeMessages(messageCount ?? 4);
  const base = newSessionRecord({
    id: Bun.randomUUIDv7("hex", at),
    now: new Date(at),
    cwd: "/home/you/project",
    provider: "openai",
    model: "gpt-5",
    messages,
    costUsd: 0,
  });
  return { ...base, inputTokens: 1200, outputTokens: 300, ...rest, messages };
}
