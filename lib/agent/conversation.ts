import type { ModelMessage } from "ai";
import type { EventSink, Usage } from "../events.ts";
import type { AnyTool } from "../tools/define.ts";
import { toolsFor } from "../tools/index.ts";
import type { MemoryStore } from "../memory/store.ts";
import { createNotebook, type Notebook } from "../notebook/notebook.ts";
import { renderTodos } from "../notebook/render.ts";
import type { Todo } from "../notebook/schema.ts";
import { buildInstructions } from "./instructions.ts";
import { keyRedactor, redactEvent } from "./redact-key.ts";
import type { Runtime } from "./runtime.ts";
import type { Approver } from "./sdk-tools.ts";
import { runTurn, type TurnResult } from "./turn.ts";

export type ConversationOptions = {
  runtime: Runtime;
  /** The history array to work on (a live session's, shared so autosave sees every step). */
  history?: ModelMessage[];
  todos?: readonly Todo[];
  /** The project's memory store, whose tools the session gets (none with --no-memory). */
  memory?: MemoryStore;
  /** The project-memory block, rendered once at the start of the session. */
  memoryBlock?: string;
  /** Called when a turn starts; returns the hook run after each of its steps (autosave, cost). */
  beginTurn?: () => (history: readonly ModelMessage[], usage: Usage) => void;
  /** Something changed outside a step (the user's message was added). */
  onChange?: () => void;
  retryBaseMs?: number;
  /** Tokens already used by this session before now (a resumed session's totals). */
  usage?: Usage;
};

export type Conversation = {
  readonly history: ModelMessage[];
  readonly notebook: Notebook;
  readonly tools: readonly AnyTool[];
  /** Tokens used by this conversation so far, as the provider reported them. */
  readonly usage: Usage;
  instructions(): string;
  /** Runs one user prompt to the end of its turn. Never throws for provider or tool failures. */
  runPrompt(prompt: string, io: { emit: EventSink; approve: Approver; signal: AbortSignal }): Promise<TurnResult>;
};

/**
 * One conversation: the history, its task list and the tools bound to them. Shared by the
 * headless printer and the interactive loop, so both behave the same.
 */
export function createConversation(opts: ConversationOptions): Conversation {
  const { runtime } = opts;
  const history: ModelMessage[] = opts.history ?? [];
  const notebook = createNotebook(opts.todos);
  const tools: AnyTool[] = toolsFor({ notebook, memory: opts.memory });
  const usage: Usage = { inputTokens: opts.usage?.inputTokens ?? 0, outputTokens: opts.usage?.outputTokens ?? 0 };
  const redact = keyRedactor(runtime.settings.apiKey);

  const conversation: Conversation = {
    history,
    notebook,
    tools,
    usage,
    instructions: () =>
      buildInstructions({
        env: runtime.env,
        projectDocs: runtime.projectDocs,
        memory: opts.memoryBlock,
        todos: renderTodos(notebook.todos()),
      }),
    async runPrompt(prompt, io) {
      history.push({ role: "user", content: prompt });
      opts.onChange?.();
      const before = { ...usage };
      const afterStep = opts.beginTurn?.();
      const result = await runTurn({
        model: runtime.model,
        history,
        tools,
        instructions: conversation.instructions,
        compactAtTokens: runtime.settings.compactAtTokens,
        maxSteps: runtime.settings.maxSteps,
        maxRetries: runtime.settings.maxRetries,
        retryBaseMs: opts.retryBaseMs,
        root: runtime.env.root,
        cwd: runtime.env.cwd,
        signal: io.signal,
        // Provider error text can echo the key back; it must not reach the screen or a log.
        emit: (event) => io.emit(redactEvent(event, redact)),
        approve: io.approve,
        redact,
        onStep: (_history, turnUsage) => {
          usage.inputTokens = before.inputTokens + turnUsage.inputTokens;
          usage.outputTokens = before.outputTokens + turnUsage.outputTokens;
          afterStep?.(_history, turnUsage);
        },
      });
      return result.error === undefined ? result : { ...result, error: redact(result.error) };
    },
  };
  return conversation;
}
