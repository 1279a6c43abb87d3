import { existsSync } from "node:fs";
import { openMemoryStore, renderMemoryBlock, staleMarks, type MemoryStore } from "../memory/index.ts";
import { restoreTodos } from "../notebook/restore.ts";
import { continueSession, findSession } from "../sessions/find.ts";
import { openLiveSession, type LiveSession } from "../sessions/live-session.ts";
import { forkSession } from "../sessions/fork.ts";
import { lastingPrefix } from "../sessions/prefix.ts";
import { listSessionIds } from "../sessions/store.ts";
import type { SessionRecord } from "../sessions/schema.ts";
import { requestBudget, smallWindowNotice } from "../agent/context-budget.ts";
import { openUndoJournal, type UndoJournal } from "../sessions/undo/journal.ts";
import { createConversation, type Conversation } from "../agent/conversation.ts";
import { DEFAULT_MAX_STOP_BLOCKS } from "../hooks/events.ts";
import { Hooks, type HookRunRecord } from "../hooks/hooks.ts";
import type { HookPlan } from "../hooks/plan.ts";
import { sessionPath } from "../sessions/paths.ts";
import { changesWorkspace } from "../agent/workspace-change.ts";
import type { Runtime } from "../agent/runtime.ts";
import { runtimeWithModel } from "./load-runtime.ts";
import { commandRunRecorder } from "./command-notes.ts";

/** Which session to work in: a new one, the newest for this directory (-c), or one by id (-r). */
export type SessionChoice =
  | { type: "new" }
  /** `fork`: continue a copy (--fork), the original left as it is. */
  | { type: "continue"; fork?: boolean }
  | { type: "resume"; idOrPrefix: string; fork?: boolean }
  | { type: "record"; record: SessionRecord };

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
  /**
   * The hooks that run in this session (lib/hooks/plan.ts), and what SessionStart says about how
   * it started: startup, resume (-c, -r, /resume), clear (/clear) or compact (/compact).
   */
  hooks?: SessionHooksOptions;
};

export type SessionHooksOptions = {
  plan: HookPlan;
  source: "startup" | "resume" | "clear" | "compact";
  /** The mode in Claude Code's words, read at each event (shift-tab changes it). */
  permissionMode: () => string;
  /** The hooks' environment (the user's, without the API key). */
  env: Record<string, string>;
  maxStopBlocks?: number;
};

export type Started = {
  conversation: Conversation;
  live: LiveSession;
  memory: MemoryStore | undefined;
  /** The session's undo journal (`$SHIRO_HOME/sessions/<id>.undo/`), kept across -c and /resume. */
  undo: UndoJournal;
  /** One-line notices for the user (a fork, dropped tasks, a corrupt memory store set aside, a window too small, …). */
  notices: string[];
  /** The session's hooks, when any are configured. */
  hooks: Hooks | undefined;
  /** What the SessionStart hooks did, for the screen or the JSON stream. */
  hookRuns: HookRunRecord[];
  /** Hook context waiting for the next prompt: the conversation sends and empties it; more may be pushed (after /compact). */
  hookContext: string[];
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
  const chosen = chooseRecord(runtime, opts.session, (warning) => notices.push(warning));
  const record = chosen && "fork" in opts.session && opts.session.fork ? forkChosen(runtime, chosen, notices) : chosen;

  let memory: MemoryStore | undefined;
  let memoryBlock = "";
  if (opts.memory) {
    const opened = await openMemoryStore({ home: runtime.home, projectRoot: runtime.workspace.root, onNotice: (m) => notices.push(m) });
    if (opened.notice && !notices.includes(opened.notice)) notices.push(opened.notice);
    memory = opened.store;
    memoryBlock = renderMemoryBlock(opened.entries, staleMarks(opened.entries, runtime.workspace.root, existsSync, new Date()));
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
  const undo = openUndoJournal(runtime.home, live.id, { root: runtime.workspace.root });

  const started = await startHooks(opts.hooks, runtime, live, notices);
  conversation = createConversation({
    runtime,
    session: live,
    todos: restored.todos,
    memory,
    memoryBlock,
    undo,
    subagents: { workers: opts.workers ?? false, runtimeFor: runtimeWithModel },
    ...(onlyReads ? { onlyReads } : {}),
    ...(memory ? { onCommandEnded: commandRunRecorder(memory) } : {}),
    ...(started.hooks ? { hooks: { hooks: started.hooks, startContext: started.context, maxStopBlocks: opts.hooks?.maxStopBlocks ?? DEFAULT_MAX_STOP_BLOCKS } } : {}),
  });
  conversation.notebook.onChange(() => live.touch());
  const small = smallWindowWarning(runtime, conversation);
  if (small) notices.push(small);
  return { conversation, live, memory, undo, notices, hooks: started.hooks, hookRuns: started.runs, hookContext: started.context };
}

/** The session's hooks, and its SessionStart hooks run: their context waits for the first prompt. */
async function startHooks(options: SessionHooksOptions | undefined, runtime: Runtime, live: LiveSession, notices: string[]) {
  const none = { hooks: undefined, context: [] as string[], runs: [] as HookRunRecord[] };
  if (!options || options.plan.table.size === 0) return none;
  const root = runtime.workspace.root;
  const hooks = new Hooks(options.plan.table, {
    sessionId: () => live.id,
    transcriptPath: () => sessionPath(runtime.home, live.id),
    cwd: root,
    permissionMode: options.permissionMode,
    env: { ...options.env, SHIRO_PROJECT_DIR: root, CLAUDE_PROJECT_DIR: root },
  });
  const runs: HookRunRecord[] = [];
  const outcome = await hooks.fire("SessionStart", { source: options.source }, { onRun: (run) => runs.push(run) });
  notices.push(...outcome.systemMessages, ...outcome.errors);
  return { hooks, context: outcome.context, runs };
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

/** --fork: a copy of the chosen session (lib/sessions/fork.ts) is the one continued. */
function forkChosen(runtime: Runtime, source: SessionRecord, notices: string[]): SessionRecord {
  const copy = forkSession(runtime.home, source);
  const ids = listSessionIds(runtime.home);
  notices.push(`Continuing a copy of session ${lastingPrefix(source.id, ids)}, as ${lastingPrefix(copy.id, ids)}; the original stays as it was.`);
  return copy;
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
