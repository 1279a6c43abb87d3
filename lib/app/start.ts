import { openMemoryStore, renderMemoryBlock, type MemoryStore } from "../memory/index.ts";
import { restoreTodos } from "../notebook/restore.ts";
import { continueSession, findSession } from "../sessions/find.ts";
import { openLiveSession, type LiveSession } from "../sessions/live-session.ts";
import type { SessionRecord } from "../sessions/schema.ts";
import { requestBudget, smallWindowNotice } from "../agent/context-budget.ts";
import { openUndoJournal, type UndoJournal } from "../sessions/undo/journal.ts";
import { createConversation, type Conversation } from "../agent/conversation.ts";
import { changesWorkspace } from "../agent/workspace-change.ts";
import type { Runtime } from "../agent/runtime.ts";
import { runtimeWithModel } from "./load-runtime.ts";

/** Which session to work in: a new one, the newest for this directory (-c), or one by id (-r). */
export type SessionChoice = { type: "new" } | { type: "continue" } | { type: "resume"; idOrPrefix: string } | { type: "record"; record: SessionRecord };

export type StartOptions = {
  runtime: Runtime;
  /** False with --no-memory: no block, no tools, no file touched. */
  memory: boolean;
  session: SessionChoice;
  /** Where a failed background save is reported. */
  onSaveError?: (error: unknown) => void;
  /** Offer the task tool's worker subagents: only where someone can answer their approvals (interactive, or --yolo). */
  workers?: boolean;
  /** A command line that only reads, not counted as a change /undo cannot revert (ConversationOptions.onlyReads). */
  onlyReads?: (command: string, cwd: string) => boolean;
};

export type Started = {
  conversation: Conversation;
  live: LiveSession;
  memory: MemoryStore | undefined;
  /** The session's undo journal (`$SHIRO_HOME/sessions/<id>.undo/`), kept across -c and /resume. */
  undo: UndoJournal;
  /** One-line notices for the user (a fork, dropped tasks, a corrupt memory store set aside, a window too small, …). */
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
  const notices: string[] = [];
  const record = chooseRecord(runtime, opts.session, (warning) => notices.push(warning));

  let memory: MemoryStore | undefined;
  let memoryBlock = "";
  if (opts.memory) {
    const opened = await openMemoryStore({ home: runtime.home, projectRoot: runtime.workspace.root, onNotice: (m) => notices.push(m) });
    if (opened.notice && !notices.includes(opened.notice)) notices.push(opened.notice);
    memory = opened.store;
    memoryBlock = renderMemoryBlock(opened.entries);
  }

  const restored = restoreTodos(record?.notebook.todos);
  if (restored.notice) notices.push(restored.notice);

  let conversation: Conversation | undefined;
  const onlyReads = opts.onlyReads ? lastJudgementKept(opts.onlyReads) : undefined;
  const live = openLiveSession({
    home: runtime.home,
    cwd: runtime.workspace.cwd,
    provider: runtime.settings.provider,
    model: runtime.settings.model,
    ...(record ? { resume: record } : {}),
    todos: () => conversation?.notebook.todos() ?? restored.todos,
    changesWorkspace: changesWorkspace(() => conversation?.tools ?? [], (command) => onlyReads?.(command, runtime.workspace.cwd) === true),
    ...(opts.onSaveError ? { onSaveError: opts.onSaveError } : {}),
  });
  if (live.notice) notices.push(live.notice);
  const undo = openUndoJournal(runtime.home, live.id);

  conversation = createConversation({
    runtime,
    session: live,
    todos: restored.todos,
    memory,
    memoryBlock,
    undo,
    subagents: { workers: opts.workers ?? false, runtimeFor: runtimeWithModel },
    ...(onlyReads ? { onlyReads } : {}),
  });
  conversation.notebook.onChange(() => live.touch());
  const small = smallWindowWarning(runtime, conversation);
  if (small) notices.push(small);
  return { conversation, live, memory, undo, notices };
}

/**
 * The judgement with its last answer kept for the asks that follow it about the same call: a
 * command is judged as its call starts and as its result comes in (whether the step under way is
 * saved at once), for /undo's count of commands, and for its step's save (changesWorkspace). The
 * answer serves the next two asks, then is forgotten (a later ask judges afresh, which only costs
 * time), so the same line run later, when the files it names may have changed, is never answered
 * from an old judgement. A judgement that throws is not kept.
 */
function lastJudgementKept(judge: (command: string, cwd: string) => boolean): (command: string, cwd: string) => boolean {
  let last: { command: string; cwd: string; answer: boolean; uses: number } | undefined;
  return (command, cwd) => {
    if (last?.command === command && last.cwd === cwd) {
      const { answer } = last;
      if (--last.uses === 0) last = undefined;
      return answer;
    }
    const answer = judge(command, cwd);
    last = { command, cwd, answer, uses: 2 };
    return answer;
  };
}

/**
 * The warning, said once at start (and after `/model`), that the model's window leaves too little
 * for the conversation once the instructions, tools and answer have their share; undefined when
 * it is big enough. Better said now than discovered mid-task.
 */
export function smallWindowWarning(runtime: Runtime, conversation: Pick<Conversation, "instructions" | "tools">): string | undefined {
  const window = runtime.window.info;
  const budget = requestBudget(window, { pruneAtTokens: runtime.settings.pruneAtTokens, instructions: conversation.instructions(), tools: conversation.tools });
  return budget.tooSmall ? smallWindowNotice(runtime.settings.model, window, budget) : undefined;
}

function chooseRecord(runtime: Runtime, choice: SessionChoice, onSkipped: (warning: string) => void): SessionRecord | undefined {
  switch (choice.type) {
    case "new":
      return undefined;
    case "continue":
      // -c continues a conversation: one taken back to nothing is passed over.
      return continueSession(runtime.home, runtime.workspace.cwd, { withMessages: true, onSkipped });
    case "resume":
      return findSession(runtime.home, choice.idOrPrefix);
    case "record":
      return choice.record;
    default:
      return choice satisfies never;
  }
}
