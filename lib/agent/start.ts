import type { ModelMessage } from "ai";
import { openMemoryStore, renderMemoryBlock, type MemoryStore } from "../memory/index.ts";
import { restoreTodos } from "../notebook/restore.ts";
import { continueSession, findSession } from "../sessions/find.ts";
import { openLiveSession, type LiveSession } from "../sessions/live-session.ts";
import type { SessionRecord } from "../sessions/schema.ts";
import { createConversation, type Conversation } from "./conversation.ts";
import type { Runtime } from "./runtime.ts";

/** Which session to work in: a new one, the newest for this directory (-c), or one by id (-r). */
export type SessionChoice = { type: "new" } | { type: "continue" } | { type: "resume"; idOrPrefix: string } | { type: "record"; record: SessionRecord };

export type StartOptions = {
  runtime: Runtime;
  /** False with --no-memory: no block, no tools, no file touched. */
  memory: boolean;
  session: SessionChoice;
  retryBaseMs?: number;
  /** Where a failed background save is reported. */
  onSaveError?: (error: unknown) => void;
};

export type Started = {
  conversation: Conversation;
  live: LiveSession;
  memory: MemoryStore | undefined;
  /** One-line notices for the user (a fork, dropped tasks, a corrupt memory store set aside, …). */
  notices: string[];
};

/**
 * Opens what a session needs at its start — the saved session (new, continued or resumed, forked
 * when another shiro holds it), its task list, and project memory — and builds the conversation
 * on the session's own history so every step is autosaved. Throws ShiroError("usage") when -c
 * or -r finds nothing, before anything is opened. The memory block is rendered once, here.
 */
export async function startConversation(opts: StartOptions): Promise<Started> {
  const { runtime } = opts;
  const record = chooseRecord(runtime, opts.session);
  const notices: string[] = [];

  let memory: MemoryStore | undefined;
  let memoryBlock = "";
  if (opts.memory) {
    const opened = await openMemoryStore({ home: runtime.home, projectRoot: runtime.env.root, onNotice: (m) => notices.push(m) });
    if (opened.notice && !notices.includes(opened.notice)) notices.push(opened.notice);
    memory = opened.store;
    memoryBlock = renderMemoryBlock(opened.entries);
  }

  const restored = restoreTodos(record?.notebook.todos);
  if (restored.notice) notices.push(restored.notice);

  let conversation: Conversation | undefined;
  let mutating = new Set<string>();
  const live = openLiveSession({
    home: runtime.home,
    cwd: runtime.env.cwd,
    provider: runtime.settings.provider,
    model: runtime.settings.model,
    ...(record ? { resume: record } : {}),
    todos: () => conversation?.notebook.todos() ?? restored.todos,
    ...(opts.onSaveError ? { onSaveError: opts.onSaveError } : {}),
  });
  if (live.notice) notices.push(live.notice);

  conversation = createConversation({
    runtime,
    history: live.history as ModelMessage[],
    todos: restored.todos,
    memory,
    memoryBlock,
    beginTurn: () => {
      const afterStep = live.beginTurn();
      return (history, usage) => {
        afterStep(history, usage);
        // A step that changed files or ran a command is written at once rather than on the 400 ms
        // timer: a crash right after it must not lose the record of what was done to the workspace.
        if (!lastStepChangedThings(history, mutating)) return;
        try {
          live.save();
        } catch (error) {
          opts.onSaveError?.(error); // the timer retries on the next change
        }
      };
    },
    onChange: () => live.touch(),
    retryBaseMs: opts.retryBaseMs,
    usage: live.totals(),
  });
  mutating = new Set(conversation.tools.filter((t) => t.mutates).map((t) => t.name));
  conversation.notebook.onChange(() => live.touch());
  return { conversation, live, memory, notices };
}

function chooseRecord(runtime: Runtime, choice: SessionChoice): SessionRecord | undefined {
  switch (choice.type) {
    case "new":
      return undefined;
    case "continue":
      return continueSession(runtime.home, runtime.env.cwd);
    case "resume":
      return findSession(runtime.home, choice.idOrPrefix);
    case "record":
      return choice.record;
    default:
      return choice satisfies never;
  }
}

/** True when the newest assistant message called a tool that writes files or runs commands. */
function lastStepChangedThings(history: readonly ModelMessage[], mutating: ReadonlySet<string>): boolean {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role === "user") return false;
    if (m.role !== "assistant" || typeof m.content === "string") continue;
    return m.content.some((part) => part.type === "tool-call" && mutating.has(part.toolName));
  }
  return false;
}
