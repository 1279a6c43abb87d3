import { createConversation, type Conversation } from "../../lib/agent/conversation.ts";
import type { Runtime } from "../../lib/agent/runtime.ts";
import type { Usage } from "../../lib/events.ts";
import type { Todo } from "../../lib/notebook/schema.ts";
import type { ConversationInit, MadeConversation, ReplServices } from "./services.ts";

export type ConversationSlot = {
  /** The conversation prompts go to now. Only valid after the first use(). */
  current(): Conversation;
  /** Makes and swaps in a new conversation (start, /clear); returns its notices. */
  make(init: ConversationInit): Promise<readonly string[]>;
  /** Swaps in `made` (start, /clear, /resume); its spending starts at zero. Returns its notices. */
  adopt(made: MadeConversation): readonly string[];
  /** USD spent in this conversation, "unpriced" once a turn ran on a model without a price, undefined without pricing. */
  spent(): number | "unpriced" | undefined;
  /** Adds one turn's usage, priced at the model it ran on. */
  account(usage: Usage): void;
  /** What to print on the way out (the sessions hook, or "Good bye."). */
  exitMessage(): Promise<string>;
  close(): void;
};

/** The loop's one live conversation and what it cost, replaceable by /clear and /resume. */
export function createConversationSlot(opts: {
  runtime: Runtime;
  services: ReplServices;
  retryBaseMs?: number;
  /** The task list changed. */
  onTodos(todos: readonly Todo[]): void;
}): ConversationSlot {
  const { runtime, services } = opts;
  let conversation: Conversation | undefined;
  let spent: number | "unpriced" | undefined;
  let stopTodos = () => {};
  const adopt = (made: MadeConversation): readonly string[] => {
    const next = "conversation" in made ? made.conversation : made;
    stopTodos();
    conversation = next;
    spent = services.costUsd ? 0 : undefined;
    stopTodos = next.notebook.onChange((todos) => opts.onTodos(todos));
    return "conversation" in made ? (made.notices ?? []) : [];
  };
  return {
    current: () => conversation!,
    async make(init) {
      return adopt(services.newConversation ? await services.newConversation(runtime, init) : createConversation({ runtime, retryBaseMs: opts.retryBaseMs }));
    },
    adopt,
    spent: () => (services.spent ? services.spent() : spent),
    account(usage) {
      if (!services.costUsd || spent === "unpriced") return;
      const cost = services.costUsd(runtime.settings.model, usage);
      spent = cost === undefined ? "unpriced" : (spent ?? 0) + cost;
    },
    async exitMessage() {
      const message = services.exitMessage && conversation ? await services.exitMessage(conversation) : "Good bye.\n";
      return message.endsWith("\n") ? message : message + "\n";
    },
    close: () => stopTodos(),
  };
}
