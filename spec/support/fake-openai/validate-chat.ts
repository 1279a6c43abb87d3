// History validation for POST /v1/chat/completions, as the real API enforces it: every assistant
// `tool_calls` entry must be answered by a role:"tool" message before the next user/assistant message,
// and every tool message must answer a call that the preceding assistant message left open.
import { chatOrphanToolMessage, chatUnansweredToolCalls, type Rejection } from "./errors.ts";

export function validateChatRequest(body: any): Rejection | undefined {
  const messages: any[] = Array.isArray(body.messages) ? body.messages : [];
  let open = new Set<string>(); // call ids of the latest assistant tool_calls not answered yet
  let openedAt = -1;

  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const role = m?.role;
    if (role === "tool") {
      const id = String(m.tool_call_id);
      if (!open.has(id)) return chatOrphanToolMessage(i, id);
      open.delete(id);
      continue;
    }
    if (role === "user" || role === "assistant") {
      // The real API reports the message that broke the sequence.
      if (open.size > 0) return chatUnansweredToolCalls(i, [...open]);
      open = new Set();
      if (role === "assistant" && Array.isArray(m.tool_calls)) {
        for (const call of m.tool_calls) open.add(String(call?.id));
        openedAt = i;
      }
    }
    // system / developer messages neither open nor close tool calls.
  }
  if (open.size > 0) return chatUnansweredToolCalls(openedAt, [...open]);
  return undefined;
}
