import type { ModelMessage } from "ai";
import { createMemoryTools, openMemoryStore, renderMemoryBlock, type MemoryStore } from "../memory/index.ts";
import type { Todo } from "../notebook/schema.ts";
import { createConversation, type Conversation, type ConversationOptions } from "./conversation.ts";
import type { Runtime } from "./runtime.ts";

export type StartOptions = {
  runtime: Runtime;
  /** False with --no-memory: no block, no tools, no file touched. */
  memory: boolean;
  history?: ModelMessage[];
  todos?: readonly Todo[];
  prepareMessages?: ConversationOptions["prepareMessages"];
  onStep?: ConversationOptions["onStep"];
  retryBaseMs?: number;
};

export type Started = {
  conversation: Conversation;
  memory: MemoryStore | undefined;
  /** One-line notices for the user (a corrupt memory store set aside, …). */
  notices: string[];
};

/**
 * Opens what a session reads at its start (project memory) and builds the conversation. The
 * memory block is rendered once here, as the spec says: it is what earlier sessions learned.
 */
export async function startConversation(opts: StartOptions): Promise<Started> {
  const notices: string[] = [];
  let memory: MemoryStore | undefined;
  let memoryBlock = "";
  if (opts.memory) {
    const opened = await openMemoryStore({ home: opts.runtime.home, projectRoot: opts.runtime.env.root, onNotice: (m) => notices.push(m) });
    if (opened.notice && !notices.includes(opened.notice)) notices.push(opened.notice);
    memory = opened.store;
    memoryBlock = renderMemoryBlock(opened.entries);
  }
  const conversation = createConversation({
    runtime: opts.runtime,
    history: opts.history,
    todos: opts.todos,
    extraTools: memory ? createMemoryTools(memory) : [],
    memoryBlock,
    prepareMessages: opts.prepareMessages,
    onStep: opts.onStep,
    retryBaseMs: opts.retryBaseMs,
  });
  return { conversation, memory, notices };
}
