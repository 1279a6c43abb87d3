import type { Conversation } from "../agent/conversation.ts";
import { generate, type GenerateRequest } from "../agent/generate.ts";
import type { Runtime } from "../agent/runtime.ts";
import type { Flags } from "../config/resolve.ts";
import { ShiroError } from "../errors.ts";
import { displayPath } from "../fs/workspace.ts";
import type { MemoryStore } from "../memory/index.ts";
import type { Todo } from "../notebook/schema.ts";
import { createPermissionPolicy, type AskAnswer, type Grant, type PermissionQuestion } from "../permissions/index.ts";
import type { ApprovalMode } from "../config/permission-schema.ts";
import { isReadOnlyCommand, readOnlyList } from "../permissions/read-only.ts";
import { findSession, inLoop } from "../sessions/find.ts";
import type { LiveSession } from "../sessions/live-session.ts";
import { lastingPrefix } from "../sessions/prefix.ts";
import { formatUsd } from "../sessions/pricing.ts";
import { listSessionIds } from "../sessions/store.ts";
import { titleFromPrompt } from "../sessions/title.ts";
import { subjectKindsOf, subjectsOf, transcriptItems, type TranscriptItem } from "../sessions/transcript-items.ts";
import type { UndoJournal } from "../sessions/undo/journal.ts";
import { runtimeForCommand, runtimeResolvedAgain, runtimeWithModel } from "./load-runtime.ts";
import { smallWindowWarning, startConversation, type SessionChoice, type SessionHooksOptions } from "./start.ts";
import { createSessionHooks } from "./session-hooks.ts";
type SessionStartSource = SessionHooksOptions["source"];
import { createGoingBack } from "./going-back.ts";
import { createNoteSuggestions } from "./note-suggestions.ts";
import { createMemoryCommands } from "./session-memory.ts";
import { reapLeftJobs, sessionJobs } from "./jobs.ts";
import { jobsDir } from "../sessions/paths.ts";
import { forkSession } from "../sessions/fork.ts";
import { createUserShell } from "./user-shell.ts";
import { createTranscript } from "./transcript.ts";
import { endedNote } from "../tools/jobs.ts";
import type { RuleScope } from "../permissions/save-rule.ts";
import { ruleTarget, saveRule } from "./saved-rules.ts";
import { resumableSessions, sessionsTable } from "./session-list.ts";
import { listModels, type ModelListing } from "../provider/list-models.ts";

type Env = Record<string, string | undefined>;

/** How long `/model` waits for the server's list before saying it has none. */
const MODEL_LIST_TIMEOUT_MS = 5_000;

export type SessionOptions = {
  /** The runtime loaded for this run (MCP attached). */
  runtime: Runtime;
  /** The run's flags: settings are resolved again from them when the agent or the thinking level changes. */
  flags: Flags;
  env: Env;
  /** False with --no-memory. */
  memory: boolean;
  /** The first session: new, -c, or -r <id>. */
  choice: SessionChoice;
  /** A person can answer questions (the interactive loop), rather than nobody (`shiro -p`). */
  interactive: boolean;
  /** --yolo: asks become allows; headless, the only way a worker subagent's approvals are answered. */
  yolo: boolean;
  /** Where a failed background save is reported. */
  onSaveError(error: unknown): void;
  /** The task list changed (the model's todo_write, /undo, a resume). */
  onTodos?(todos: readonly Todo[]): void;
  /** `--no-hooks` and `--trust-project-hooks` (docs/hooks.md). */
  hooks?: { disabled: boolean; trustProject: boolean };
};

/** What the spend ceiling says before a turn: `refuse` stops it; `notice` is said first. */
export type SpendCheck = { refuse?: string; notice?: string } | undefined;

/**
 * The session service every run mode shares (pi's AgentSession is the anchor): `shiro -p` and the
 * interactive loop each add only their I/O on top. It owns the one live conversation and what
 * both modes do with it: choosing or resuming the session, the runtime and its switches (model,
 * agent variant, thinking level), the permission policy, the spend ceiling, /compact, memory,
 * undo and diff, the turn itself, and closing.
 *
 * Resuming restores the messages and the task list. What a session records about itself (the
 * model, agent variant and thinking level in its header) is recorded, not restored: the runtime
 * comes from the current config and flags, whichever session is opened. This is decided here,
 * for both modes.
 *
 * One live session at a time: opening another (/clear, /resume) closes the current one (flushing
 * it) first. Never touches the process: the mode calls `close()` on its way out.
 */
export async function openSession(opts: SessionOptions) {
  const { flags, env } = opts;
  let runtime = opts.runtime;
  let live!: LiveSession;
  let conversation!: Conversation;
  /** The last session closed by /clear or /resume that had messages: what to point at on exit if the current one has none. */
  let previous: LiveSession | undefined;
  let memory: MemoryStore | undefined;
  let undo!: UndoJournal;
  let stopTodos = () => {};
  let closed = false;
  const maxSpend = runtime.settings.maxSpendUsd;
  /** How the user goes on from a refusal or an undo in this mode. */
  const newSession = opts.interactive ? "/clear to start a new session" : "start a new session";
  const undoCommand = opts.interactive ? "/undo" : "shiro undo";

  /** Commands that only read are not counted among those /undo cannot revert (ConversationOptions.onlyReads). */
  const onlyReads = (command: string, cwd: string) => isReadOnlyCommand(command, readOnlyList(runtime.config.readOnlyCommands), cwd);
  /** The prefix an exit message prints: unique, and staying so as sessions are added (lastingPrefix). */
  const label = (session: LiveSession) => lastingPrefix(session.id, listSessionIds(runtime.home));

  const hooks = createSessionHooks(runtime, { disabled: opts.hooks?.disabled ?? false, trustProject: opts.hooks?.trustProject ?? false, yolo: opts.yolo, interactive: opts.interactive, env });

  /** Opens `choice` in place of the current session; returns its notices. */
  const open = async (choice: SessionChoice, source: SessionStartSource): Promise<readonly string[]> => {
    let record;
    if (live) {
      // Write what is pending first, so resuming (even this same session) reads the latest file;
      // then resolve the id before closing anything, so a bad id leaves the current session alone.
      try {
        live.save();
      } catch (error) {
        opts.onSaveError(error);
      }
      try {
        record = choice.type === "resume" ? findSession(runtime.home, choice.idOrPrefix) : undefined;
      } catch (error) {
        // The messages name the shell's command for the list; here it is a slash command.
        if (error instanceof ShiroError) throw new ShiroError(error.code, inLoop(error.message));
        throw error;
      }
      live.close();
      if (live.history.length > 0) previous = live;
    }
    const started = await startConversation({
      runtime,
      memory: opts.memory,
      session: record ? { type: "record", record } : choice,
      onSaveError: opts.onSaveError,
      workers: opts.interactive || opts.yolo,
      onlyReads,
      ...(hooks.options ? { hooks: { ...hooks.options, source } } : {}),
    });
    hooks.opened(started);
    stopTodos();
    live = started.live;
    suggestions.opened(live.history);
    memory = started.memory;
    undo = started.undo;
    conversation = started.conversation;
    stopTodos = opts.onTodos ? conversation.notebook.onChange(opts.onTodos) : () => {};
    runtime.commands.jobs.useDir(jobsDir(runtime.home, live.id));
    return started.notices;
  };
  const shown = (path: string) => displayPath(runtime.workspace, path);
  /** Saves this session, copies it (lib/sessions/fork.ts) and goes on in the copy; undefined when there is nothing to copy. */
  const forkNow = async (): Promise<string | undefined> => {
    if (!live.save() || live.history.length === 0) return undefined;
    const from = live.id;
    const copy = forkSession(runtime.home, findSession(runtime.home, from));
    await open({ type: "record", record: copy }, "resume");
    return `Forked: this conversation goes on as session ${label(live)}; session ${lastingPrefix(from, listSessionIds(runtime.home))} stays as it was.`;
  };
  const transcript = createTranscript({ home: runtime.home, id: () => live.id, history: () => live.history, onError: (message) => opts.onSaveError(new Error(message)) }); // full outputs, `!cmd` runs, marks
  /** /undo, /rewind, /fork and /diff (going-back.ts), on the session open at each call. */
  const goingBack = createGoingBack({ live: () => live, undo: () => undo, conversation: () => conversation, shown, undoCommand, forkNow, mark: transcript.mark });
  /** One request outside a turn (/compact, /memory): abortable, its tokens booked in the session. */
  const ask = (request: GenerateRequest, signal: AbortSignal, onRetry?: (notice: string) => void) =>
    generate(runtime, request, { signal, book: (usage) => live.book(usage), ...(onRetry ? { onRetry } : {}) });
  const suggestions = createNoteSuggestions({ live: () => live, undo: () => undo, memory: () => memory, runtime: () => runtime, tools: () => conversation.tools, ask });
  /** `/notes`, `/memory` and `/compact` (session-memory.ts), on the session open at each call. */
  const memoryCommands = createMemoryCommands({ live: () => live, memory: () => memory, undo: () => undo, runtime: () => runtime, tools: () => conversation.tools, ask, hooks, mark: (text) => transcript.mark(text) });
  const use = (next: Runtime) => {
    runtime = next;
    conversation.useRuntime(next);
  };

  /** A level from --think or /think; the variant's own level applies otherwise. */
  let thinkingOverride = flags.thinking;
  /** Settings resolved again (the same precedence) with the session's choices: model, variant, level. */
  const reconfigure = (change: { agent?: string; thinking?: string }) =>
    use(runtimeResolvedAgain(runtime, { ...flags, agent: change.agent ?? runtime.settings.agent, thinking: change.thinking ?? thinkingOverride }, env));

  const unpricedNames = (): string => {
    const names = live.unpricedModels();
    if (names.length === 0) return runtime.settings.model;
    return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  };

  /** Flushes and releases the session and ends the sandbox; once (the mode calls it on every way out). */
  const close = () => {
    if (closed) return;
    closed = true;
    stopTodos();
    live.close();
    runtime.commands.jobs.killNow();
    runtime.commands.runner.close();
  };

  // Jobs a shiro that crashed left running are stopped before anything else starts.
  const reaped = await reapLeftJobs(runtime.home);
  const startNotices = [...reaped, ...(await open(opts.choice, opts.choice.type === "new" ? "startup" : "resume"))];

  const userShell = createUserShell({ runtime: () => runtime, conversation: () => conversation, home: runtime.workspace.userHome, transcript });
  /** The server's last answer to `/model`'s request for its models. */
  let listing: ModelListing | undefined;

  return {
    startNotices,
    /** What the SessionStart hooks of the first session did. */
    startHookRuns: hooks.startRuns(),
    /** Which hooks run, and a project's hooks file waiting to be trusted. */
    hookPlan: hooks.plan,
    /** What to say at start about hooks: what the configuration names but shiro skips, a project's untrusted hooks. */
    hookNotices: hooks.notices,
    /** The session's hooks, for /hooks. */
    hooks: hooks.current,
    /** --no-hooks was given. */
    hooksDisabled: hooks.disabled,
    /** SessionEnd hooks; call before closing on a normal way out. */
    endHooks: hooks.end,
    /** Notification hooks (a question waits, the loop is idle): run in the background, never waited for. */
    notify: hooks.notify,
    runtime: () => runtime,
    conversation: () => conversation,
    /** The id of the session open now. */
    id: () => live.id,
    /** Whether the session has anything saved (a first message). */
    saved: () => live.history.length > 0,
    /** The session id prefix for the header; undefined while nothing is saved ("new session"). */
    label: () => (live.history.length > 0 ? label(live) : undefined),
    /** The session is named after what was typed (not the files `@path` attached to it), if it has no name yet. */
    nameIfUntitled: (typed: string) => live.nameIfUntitled(titleFromPrompt(typed)),
    /** USD spent in this session across resumes; "unpriced" when its model has no price. */
    spent: (): number | "unpriced" => live.totals().costUsd ?? "unpriced",
    /** The models that left the session without a price ("gpt-5.2", "gpt-5.2 and my-local"); the current one when none is known. */
    unpricedNames,
    /** What subagents used in this session (already part of the totals). */
    subagents: () => live.subagentTotals(),

    /** The spend ceiling, asked before each prompt: `refuse` stops the turn; `notice` is said first. */
    checkSpend(): SpendCheck {
      if (maxSpend === undefined) return undefined;
      const cost = live.totals().costUsd;
      if (cost === undefined) return { notice: `${unpricedNames()} has no known price, so the ${formatUsd(maxSpend)} spend limit cannot be enforced.` };
      const status = live.checkSpend(maxSpend);
      if (status === "over") return { refuse: `this session has cost ${formatUsd(cost)}, at or past its ${formatUsd(maxSpend)} limit. Raise --max-spend or "maxSpendUsd", or ${newSession}.` };
      if (status === "warn") return { notice: `this session has cost ${formatUsd(cost)}, over 80% of its ${formatUsd(maxSpend)} limit.` };
      return undefined;
    },

    /**
     * The permission engine of this session. Interactive: `ask` puts the questions and `mode` is
     * the approval mode read at every call; headless, nobody is asked.
     */
    policy(how: { ask?: (question: PermissionQuestion) => Promise<AskAnswer>; mode?: () => ApprovalMode } = {}) {
      if (how.mode) hooks.useMode(how.mode);
      return createPermissionPolicy({
        config: runtime.config,
        root: runtime.workspace.root,
        cwd: runtime.workspace.cwd,
        home: runtime.workspace.userHome,
        yolo: opts.yolo,
        interactive: opts.interactive,
        sandboxed: runtime.commands.runner.sandboxed,
        ...(opts.interactive ? { ask: how.ask, mode: how.mode, precheck: true } : {}),
      });
    },

    /** `/clear`: a new, empty session. */
    clear: async () => {
      await hooks.end("clear");
      return open({ type: "new" }, "clear");
    },
    /** `/resume <id>`: throws ShiroError when there is no such session (the current one then stays). */
    async resume(id: string): Promise<{ notices: readonly string[]; message: string }> {
      const notices = await open({ type: "resume", idOrPrefix: id }, "resume");
      return { notices, message: `resumed session ${label(live)}: ${live.history.length} messages` };
    },
    /** This directory's sessions, newest first, as the picker lists them (`/resume` alone). */
    resumable: () => resumableSessions(runtime),
    /** `/sessions`: this directory's, or (`all`) every directory's, newest first. */
    sessions: (all: boolean) => sessionsTable(runtime, live.id, all),
    /** `/save`. */
    save: () => (live.save() ? `Saved ${live.history.length} messages to session ${label(live)}.` : "Nothing to save yet: the session has no messages."),

    /** The conversation so far as transcript items, subjects as the tools name them (for the replay). */
    replayItems: (): TranscriptItem[] => transcriptItems(conversation.history, subjectsOf(conversation.tools)),
    /** What kind of subject a tool has (a path, a command …), as its definition says: how a call's result line names it. */
    subjectKind: (tool: string): string | undefined => subjectKindsOf(conversation.tools)(tool),

    /** `/model <id>`: later turns use it (and its context window), and the session records and prices them with it. Returns a warning when its window is too small. */
    async switchModel(model: string): Promise<string | undefined> {
      use(await runtimeWithModel(runtime, model));
      live.setModel(runtime.settings.provider, runtime.settings.model);
      return smallWindowWarning(runtime, conversation);
    },
    /** `/agent <name>`: the variant's tools, step cap, thinking and appendix from the next turn. Throws ShiroError for an unknown name. */
    switchAgent: async (agent: string) => reconfigure({ agent }),
    /** `/think <level>`: overrides the variant's level for the rest of the session. Throws ShiroError for an unknown level. */
    async setThinking(level: string): Promise<void> {
      reconfigure({ thinking: level });
      thinkingOverride = level;
    },
    /**
     * A custom command's turn: `run` goes with the agent and model its front matter names, and the
     * session's own come back afterwards, whatever happened. Throws ShiroError for an unknown agent.
     */
    async forOneTurn(change: { agent?: string; model?: string }, run: () => Promise<void>): Promise<void> {
      if (!change.agent && !change.model) return run();
      const saved = runtime;
      use(await runtimeForCommand(runtime, change, { ...flags, thinking: thinkingOverride }, env));
      live.setModel(runtime.settings.provider, runtime.settings.model);
      try {
        await run();
      } finally {
        use(saved);
        live.setModel(saved.settings.provider, saved.settings.model);
      }
    },

    /** The server's models (`GET /models`), asked each time; the answer is kept for Tab after `/model `. Never throws. */
    async listModels(signal?: AbortSignal): Promise<ModelListing> {
      const { baseURL, apiKey } = runtime.settings;
      listing = await listModels({ baseURL, ...(apiKey ? { apiKey } : {}), timeoutMs: MODEL_LIST_TIMEOUT_MS, ...(signal ? { signal } : {}) });
      return listing;
    },
    /** The ids of the last list the server gave (empty before `/model` asked for one), for Tab completion. */
    knownModels(): string[] {
      return listing?.type === "list" ? listing.models.map((m) => m.id) : [];
    },

    /** Where an "always" for this project or every project is written, and the rule as it will read there. */
    ruleTarget: (grant: Grant, scope: Exclude<RuleScope, "session">) => ruleTarget(runtime, grant, scope),
    /** Saves an "always" answer under `alwaysAllow` in the user's config (never the repository's); throws ShiroError when the file is broken. */
    saveRule: (grant: Grant, scope: Exclude<RuleScope, "session">) => saveRule(runtime, grant, scope),

    /** `!cmd` (user-shell.ts): the user's own command, its output kept for the next prompt. */
    runShell: userShell.run,
    /** The prompt with what `!cmd` showed since the last one, as context, and those commands; takes them. */
    withShellContext: userShell.withContext,
    /** A goal's check command, run the way `!cmd` runs (docs/goals.md; lib/app/goal-run.ts). */
    runCheck: userShell.check,
    transcript,

    /** The turn: the prompt through the conversation (conversation.runPrompt). */
    runPrompt: (prompt: string, io: Parameters<Conversation["runPrompt"]>[1]) => conversation.runPrompt(prompt + endedNote(runtime.commands.jobs), io),

    ...memoryCommands,
    ...goingBack,
    ...suggestions,
    shown, // a path as the screen shows it: relative to where shiro runs

    /** Resolves when no step's save is still being written (await it before closing). */
    settled: () => live.settled(),
    ...sessionJobs(() => runtime.commands.jobs),
    /** Flushes and releases the session and ends the sandbox. Safe to call more than once (the mode calls it on every way out). */
    close,
    /** Closes; returns what the loop prints on the way out. After /clear with nothing said since, it points at the conversation that was saved. */
    exitMessage(): string {
      close();
      return live.history.length === 0 && previous ? previous.exitMessage() : live.exitMessage();
    },
    /** Closes; returns the line a headless run ends with (the session to go on from). */
    exitLine(): string {
      close();
      return live.exitLine();
    },
  };
}

export type AppSession = Awaited<ReturnType<typeof openSession>>;

/** The headless mode's words for going on after a stopped turn, and how long it lets MCP servers connect: constants of the core that owns them. */
export { GO_ON_HEADLESS } from "../agent/turn.ts";
export { HEADLESS_WAIT_MS } from "../mcp/index.ts";

