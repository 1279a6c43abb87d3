import type { LiveSession } from "../sessions/live-session.ts";
import type { ModelMessage } from "ai";
import type { EventSink, Usage } from "../events.ts";
import type { AnyTool } from "../tools/define.ts";
import { toolsFor } from "../tools/index.ts";
import type { MemoryStore } from "../memory/store.ts";
import { createNotebook, type Notebook } from "../notebook/notebook.ts";
import { renderTodos } from "../notebook/render.ts";
import type { Todo } from "../notebook/schema.ts";
import { buildInstructions } from "./instructions.ts";
import { keyRedactor, redactDeep, redactEvent } from "./redact-key.ts";
import type { Runtime } from "./runtime.ts";
import type { Approver } from "../approval.ts";
import { runTurn, type TurnResult } from "./turn.ts";

/** What a conversation needs of its session: the history it owns and the totals it keeps. */
export type ConversationSession = Pick<LiveSession, "history" | "append" | "replace" | "totals">;

export type ConversationOptions = {
  runtime: Runtime;
  /** Owns the history and the usage totals; every step goes through it (autosave, cost). */
  session: ConversationSession;
  todos?: readonly Todo[];
  /** The project's memory store, whose tools the session gets (none with --no-memory). */
  memory?: MemoryStore;
  /** The project-memory block, rendered once at the start of the session. */
  memoryBlock?: string;
};

export type Conversation = {
  /** The session's history (read-only: the session changes it). */
  readonly history: readonly import("ai").ModelMessage[];
  readonly notebook: Notebook;
  readonly tools: readonly AnyTool[];
  /** Tokens used by this session so far, earlier runs included, as the provider reported them. */
  readonly usage: Usage;
  /** The settings and model later turns run with (`/model` swaps them). */
  readonly runtime: Runtime;
  useRuntime(runtime: Runtime): void;
  instructions(): string;
  /** Runs one user prompt to the end of its turn. Never throws for provider or tool failures. */
  runPrompt(prompt: string, io: { emit: EventSink; approve: Approver; signal: AbortSignal }): Promise<TurnResult>;
};

/**
 * One conversation: its task list and the tools bound to it, over a session that owns the
 * history. Shared by the headless printer and the interactive loop, so both behave the same.
 */
export function createConversation(opts: ConversationOptions): Conversation {
  const { session } = opts;
  let runtime = opts.runtime;
  const notebook = createNotebook(opts.todos);
  const tools: AnyTool[] = toolsFor({ notebook, memory: opts.memory, commands: opts.runtime.commands });

  const conversation: Conversation = {
    get history() {
      return session.history;
    },
    notebook,
    tools,
    get usage() {
      const { inputTokens, outputTokens } = session.totals();
      return { inputTokens, outputTokens };
    },
    get runtime() {
      return runtime;
    },
    useRuntime(next) {
      runtime = next;
    },
    instructions: () =>
      buildInstructions({
        env: runtime.env,
        projectDocs: runtime.projectDocs,
        memory: opts.memoryBlock,
        todos: renderTodos(notebook.todos()),
      }),
    async runPrompt(prompt, io) {
      const redact = keyRedactor(runtime.settings.apiKey);
      // Everything the session keeps goes through the redactor first: the model's text and tool
      // arguments can carry the key too, and the history is saved and sent again.
      const history = {
        get history() {
          return session.history;
        },
        append: (messages: readonly ModelMessage[], usage?: Usage) => session.append(redactDeep(messages, redact), usage),
        replace: (messages: readonly ModelMessage[]) => session.replace(redactDeep(messages, redact)),
      };
      history.append([{ role: "user", content: prompt }]);
      const result = await runTurn({
        model: runtime.model,
        callOptions: runtime.callOptions,
        session: history,
        tools,
        instructions: conversation.instructions,
        settings: runtime.settings,
        root: runtime.env.root,
        cwd: runtime.env.cwd,
        signal: io.signal,
        // Provider error text can echo the key back; it must not reach the screen or a log.
        emit: (event) => io.emit(redactEvent(event, redact)),
        approve: io.approve,
        redact,
      });
      return result.error === undefined ? result : { ...result, error: redact(result.error) };
    },
  };
  return conversation;
}
