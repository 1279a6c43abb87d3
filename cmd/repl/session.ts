import { ShiroError } from "../../lib/errors.ts";
import { homedir } from "node:os";
import type { Conversation } from "../../lib/agent/conversation.ts";
import { generate, STOPPED, type GenerateRequest } from "../../lib/agent/generate.ts";
import type { Runtime } from "../../lib/agent/runtime.ts";
import { runtimeForCommand, runtimeWithModel } from "../../lib/app/load-runtime.ts";
import { smallWindowWarning, startConversation, type SessionChoice } from "../../lib/app/start.ts";
import { compactMemory, formatNotes, type MemoryStore } from "../../lib/memory/index.ts";
import { callOptions } from "../../lib/provider/call-options.ts";
import { listModels, type ModelListing } from "../../lib/provider/list-models.ts";
import { resolveSettings } from "../../lib/config/resolve.ts";
import type { Todo } from "../../lib/notebook/schema.ts";
import { createPermissionPolicy, type AskAnswer, type Grant, type PermissionQuestion } from "../../lib/permissions/index.ts";
import { APPROVAL_MODES, type ApprovalMode } from "../../lib/config/permission-schema.ts";
import { describeMode, modeNotice } from "../../lib/permissions/modes.ts";
import { ruleSection, ruleText, withSavedGrant, type RuleScope } from "../../lib/permissions/save-rule.ts";
import { configPath } from "../../lib/config/load.ts";
import { updateConfigFile } from "../../lib/config/update-file.ts";
import { compactTranscript } from "../../lib/prune/compact-summary.ts";
import { findSession, inLoop } from "../../lib/sessions/find.ts";
import { listSessions } from "../../lib/sessions/list.ts";
import { formatSessionTable, RECENT_SESSIONS, sessionRows } from "../../lib/sessions/list-format.ts";
import type { LiveSession } from "../../lib/sessions/live-session.ts";
import { lastingPrefix } from "../../lib/sessions/prefix.ts";
import { formatUsd } from "../../lib/sessions/pricing.ts";
import { listSessionIds } from "../../lib/sessions/store.ts";
import { subjectKindsOf, subjectsOf, transcriptItems, type TranscriptItem } from "../../lib/sessions/transcript-items.ts";
import { lastTurnChanges, sessionChanges, type FileChange } from "../../lib/sessions/undo/changes.ts";
import type { UndoJournal } from "../../lib/sessions/undo/journal.ts";
import { describeChangedSince, describeUndo, overwritePhrase } from "../../lib/sessions/undo/report.ts";
import { applyUndo, planUndo, type UndoMode } from "../../lib/sessions/undo/restore.ts";
import { restoreTodos } from "../../lib/notebook/restore.ts";
import { displayPath } from "../../lib/fs/workspace.ts";
import { isReadOnlyCommand, readOnlyList } from "../../lib/permissions/read-only.ts";
import { withoutAttachments } from "../../lib/prompt/attach.ts";
import { sessionChoice, type MainArgs } from "../args.ts";
import { titleFromPrompt } from "../../lib/sessions/title.ts";
import { createUserShell } from "./user-shell.ts";

type Env = Record<string, string | undefined>;

/** How long `/model` waits for the server's list before saying it has none. */
const MODEL_LIST_TIMEOUT_MS = 5_000;

/** What the interactive loop works with; see openReplSession. */
export type ReplSession = Awaited<ReturnType<typeof openReplSession>>;

/** A saved session the picker offers: its id, and a line with its prefix, age, title and size. */
export type SessionOption = { id: string; label: string };

export type ReplSessionHooks = {
  onTodos(todos: readonly Todo[]): void;
  /** Lets the user choose among this directory's sessions (newest first); undefined: none chosen. `warnings`:
   *  the session files the listing skipped (damaged), to show with the picker so a missing session is explained. */
  pickSession(options: readonly SessionOption[], warnings: readonly string[]): Promise<string | undefined>;
};

/**
 * The interactive loop's session: the one live conversation (sessions, memory, the task list),
 * what it costs, the permission engine, and what the slash commands do with them. One live
 * session at a time: /clear and /resume close the current one (flushing it) before the next is
 * opened, so this process never holds two. Opens the first conversation (-c/-r honoured; `-r`
 * without an id asks `pickSession`) before it resolves; a ShiroError from -c/-r finding nothing
 * ends the loop before it starts.
 */
export async function openReplSession(args: MainArgs, env: Env, startRuntime: Runtime, opts: ReplSessionHooks) {
  let runtime = startRuntime;
  let live!: LiveSession;
  let conversation!: Conversation;
  /** The last session closed by /clear or /resume that had messages: what to offer on exit if the current one has none. */
  let previous: LiveSession | undefined;
  let memory: MemoryStore | undefined;
  let undo!: UndoJournal;
  let stopTodos = () => {};
  /** The server's last answer to `/model`'s request for its models. */
  let listing: ModelListing | undefined;
  const maxSpend = runtime.settings.maxSpendUsd;
  const unpricedNames = (): string => {
    const names = live.unpricedModels();
    if (names.length === 0) return runtime.settings.model;
    return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  };

  /** The prefix the exit message prints: unique, and staying so as sessions are added (lastingPrefix). */
  const label = (session: LiveSession) => lastingPrefix(session.id, listSessionIds(runtime.home));
  const onSaveError = (error: unknown) => process.stderr.write(`shiro: could not save the session: ${error instanceof Error ? error.message : String(error)}\n`);

  /** Opens `choice` in place of the current session; returns its notices. */
  const open = async (choice: SessionChoice): Promise<readonly string[]> => {
    let record;
    if (live) {
      // Write what is pending first, so resuming (even this same session) reads the latest file;
      // then resolve the id before closing anything, so a bad id leaves the current session alone.
      try {
        live.save();
      } catch (error) {
        onSaveError(error);
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
      memory: args.memory,
      session: record ? { type: "record", record } : choice,
      onSaveError,
      workers: true,
      onlyReads: (command, cwd) => isReadOnlyCommand(command, readOnlyList(runtime.config.readOnlyCommands), cwd),
    });
    stopTodos();
    live = started.live;
    memory = started.memory;
    undo = started.undo;
    conversation = started.conversation;
    stopTodos = conversation.notebook.onChange(opts.onTodos);
    return started.notices;
  };
  const shown = (path: string) => displayPath(runtime.env, path);
  const userHome = env.HOME || homedir();
  const shownHome = (path: string) => (path.startsWith(userHome + "/") ? "~" + path.slice(userHome.length) : path);
  /** One request outside a turn (/compact, /memory): abortable, its tokens booked in the session. */
  const ask = (request: GenerateRequest, signal: AbortSignal, onRetry?: (notice: string) => void) =>
    generate(runtime, request, { signal, book: (usage) => live.book(usage), ...(onRetry ? { onRetry } : {}) });

  /** A level from --think or /think; the variant's own level applies otherwise. */
  let thinkingOverride = args.flags.thinking;
  /** Settings resolved again (the same precedence) with the loop's choices: model, variant, level. */
  const reconfigure = async (change: { agent?: string; thinking?: string }) => {
    const flags = { ...args.flags, model: runtime.settings.model, agent: change.agent ?? runtime.settings.agent, thinking: change.thinking ?? thinkingOverride };
    const settings = resolveSettings(flags, env, runtime.config);
    runtime = { ...runtime, settings, callOptions: callOptions(settings, runtime.window.info.requestOutputTokens) };
    conversation.useRuntime(runtime);
  };

  /** This directory's sessions as the picker lists them, newest first, and a line for each damaged file skipped. */
  const resumable = (): { options: SessionOption[]; warnings: string[] } => {
    const listing = listSessions(runtime.home, { cwd: runtime.env.cwd, limit: RECENT_SESSIONS });
    const rows = sessionRows(listing.sessions, { allIds: listing.allIds, now: new Date() });
    const table = formatSessionTable(rows, { showCwd: false }).split("\n");
    const options = listing.sessions.map((summary, i) => ({ id: summary.id, label: table[i]! }));
    return { options, warnings: listing.warnings.map((w) => `warning: ${w}`) };
  };
  /** `-r` alone: the picker; nothing saved here, or esc, starts a new session. */
  const firstChoice = async (): Promise<{ choice: SessionChoice; notice?: string }> => {
    if (args.resume !== "") return { choice: sessionChoice(args) };
    const { options, warnings } = resumable();
    if (options.length === 0) return { choice: { type: "new" }, notice: [...warnings, "No saved sessions in this directory yet, so this is a new one."].join("\n") };
    const id = await opts.pickSession(options, warnings);
    return { choice: id ? { type: "resume", idOrPrefix: id } : { type: "new" } };
  };

  /** The approval mode now (shift-tab, /mode); the policy reads it at every call. */
  let mode: ApprovalMode = runtime.settings.approvalMode;
  /** `auto` without a working sandbox is said once per session. */
  let autoExplained = false;
  const sandboxed = () => runtime.commands.runner.sandboxed;
  /** Switches the mode; returns what to print (with, the first time auto cannot run commands freely, why). */
  const setMode = (next: ApprovalMode): string => {
    mode = next;
    const notice = modeNotice(next, sandboxed() ? undefined : runtime.commands.status.state);
    const explain = notice !== undefined && !autoExplained;
    if (notice) autoExplained = true;
    return `mode ${describeMode(next, sandboxed())}${explain ? `\n${notice}` : ""}`;
  };

  const first = await firstChoice();
  const userShell = createUserShell({ runtime: () => runtime, conversation: () => conversation, home: env.HOME || homedir() });
  const startNotices = [...(first.notice ? [first.notice] : []), ...(await open(first.choice))];
  const startNotice = modeNotice(mode, sandboxed() ? undefined : runtime.commands.status.state);
  if (startNotice && !args.yolo) {
    startNotices.push(startNotice);
    autoExplained = true;
  }
  // However the process ends (even a forced exit), the session is flushed and released, and the sandbox ended.
  process.on("exit", () => (live.close(), runtime.commands.runner.close()));

  return {
    startNotices,
    runtime: () => runtime,
    conversation: () => conversation,
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
    /** The spend ceiling, asked before each prompt: `refuse` stops the turn; `notice` is printed first. */
    beforeTurn(): { refuse?: string; notice?: string } | undefined {
      if (maxSpend === undefined) return undefined;
      const cost = live.totals().costUsd;
      if (cost === undefined) return { notice: `${unpricedNames()} has no known price, so the ${formatUsd(maxSpend)} spend limit cannot be enforced.` };
      const status = live.checkSpend(maxSpend);
      if (status === "over") return { refuse: `this session has cost ${formatUsd(cost)}, at or past its ${formatUsd(maxSpend)} limit. Raise --max-spend or "maxSpendUsd", or /clear to start a new session.` };
      if (status === "warn") return { notice: `this session has cost ${formatUsd(cost)}, over 80% of its ${formatUsd(maxSpend)} limit.` };
      return undefined;
    },
    /** The permission engine around the loop's way of asking. */
    permissions: (askUser: (question: PermissionQuestion) => Promise<AskAnswer>) =>
      createPermissionPolicy({
        config: runtime.config,
        root: runtime.env.root,
        cwd: runtime.env.cwd,
        home: env.HOME || homedir(),
        yolo: args.yolo,
        interactive: true,
        sandboxed: runtime.commands.runner.sandboxed,
        ask: askUser,
        mode: () => mode,
        precheck: true,
      }),
    /** The approval mode, and what it does here (auto without a sandbox behaves as edits). */
    mode: () => ({ mode, label: sandboxed() || mode !== "auto" ? mode : "auto (as edits: no sandbox)" }),
    /** `/mode <m>`: lines to print. */
    setMode,
    /** shift-tab: ask → edits → auto → ask. */
    cycleMode: () => setMode(APPROVAL_MODES[(APPROVAL_MODES.indexOf(mode) + 1) % APPROVAL_MODES.length]!),
    /** Where an "always" for this project or every project is written, and the rule as it will read there. */
    ruleTarget: (grant: Grant, scope: Exclude<RuleScope, "session">) => ({
      file: shownHome(configPath(runtime.home)),
      section: ruleSection(scope, runtime.env.root),
      rule: ruleText(grant),
    }),
    /** Saves an "always" answer under `alwaysAllow` in the user's config (never the repository's); throws ShiroError when the file is broken. */
    async saveRule(grant: Grant, scope: Exclude<RuleScope, "session">): Promise<void> {
      const root = runtime.env.root;
      await updateConfigFile(configPath(runtime.home), (config) => {
        if (scope === "global") return { ...config, alwaysAllow: withSavedGrant(config.alwaysAllow, grant) };
        const projects = { ...(config.projects ?? {}) };
        projects[root] = { ...(projects[root] ?? {}), alwaysAllow: withSavedGrant(projects[root]?.alwaysAllow, grant) };
        return { ...config, projects };
      });
    },
    /** `/clear`: a new, empty session. */
    clear: () => open({ type: "new" }),
    /** This directory's saved sessions, newest first, for the picker (`/resume` alone). */
    resumable,
    /** The id of the session open now. */
    id: () => live.id,
    /** The conversation so far as transcript items, subjects as the tools name them (for the replay). */
    replayItems: (): TranscriptItem[] => transcriptItems(conversation.history, subjectsOf(conversation.tools)),
    /** What kind of subject a tool has (a path, a command …), as its definition says: how the replay names a call. */
    subjectKind: (tool: string): string | undefined => subjectKindsOf(conversation.tools)(tool),
    /** `/resume <id>`: throws ShiroError when there is no such session (the current one then stays). */
    async resume(id: string): Promise<{ notices: readonly string[]; message: string }> {
      const notices = await open({ type: "resume", idOrPrefix: id });
      return { notices, message: `resumed session ${label(live)}: ${live.history.length} messages` };
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
    /** `/model <id>`: later turns use it (and its context window), and the session records and prices them with it. Returns a warning when its window is too small. */
    async switchModel(model: string): Promise<string | undefined> {
      runtime = await runtimeWithModel(runtime, model);
      conversation.useRuntime(runtime);
      live.setModel(runtime.settings.provider, runtime.settings.model);
      return smallWindowWarning(runtime, conversation);
    },
    /** `/agent <name>`: the variant's tools, step cap, thinking and appendix from the next turn. Throws ShiroError for an unknown name. */
    switchAgent: (agent: string) => reconfigure({ agent }),
    /**
     * A custom command's turn: `run` goes with the agent and model its front matter names, and the
     * session's own come back afterwards, whatever happened. Throws ShiroError for an unknown agent.
     */
    async forOneTurn(change: { agent?: string; model?: string }, run: () => Promise<void>): Promise<void> {
      if (!change.agent && !change.model) return run();
      const saved = runtime;
      const next = await runtimeForCommand(runtime, change, { ...args.flags, thinking: thinkingOverride }, env);
      runtime = next;
      conversation.useRuntime(next);
      live.setModel(next.settings.provider, next.settings.model);
      try {
        await run();
      } finally {
        runtime = saved;
        conversation.useRuntime(saved);
        live.setModel(saved.settings.provider, saved.settings.model);
      }
    },
    /** `/think <level>`: overrides the variant's level for the rest of the session. Throws ShiroError for an unknown level. */
    async setThinking(level: string): Promise<void> {
      await reconfigure({ thinking: level });
      thinkingOverride = level;
    },
    /** `!cmd` (user-shell.ts): the user's own command, its output kept for the next prompt. */
    runShell: userShell.run,
    /** The prompt with what `!cmd` showed since the last one, as context, and those commands; takes them. */
    withShellContext: userShell.withContext,
    /** `/save`. */
    save: () => (live.save() ? `Saved ${live.history.length} messages to session ${label(live)}.` : "Nothing to save yet: the session has no messages."),
    /** `/sessions`: this directory's, or (`all`) every directory's, newest first. */
    sessions(all: boolean): string {
      const listing = listSessions(runtime.home, all ? { all: true, limit: RECENT_SESSIONS } : { cwd: runtime.env.cwd, limit: RECENT_SESSIONS });
      const warnings = listing.warnings.map((w) => `warning: ${w}`);
      if (listing.sessions.length === 0) return [...warnings, all ? "No saved sessions yet." : "No saved sessions in this directory yet. /sessions --all lists every directory's."].join("\n");
      const rows = sessionRows(listing.sessions, { allIds: listing.allIds, now: new Date(), current: live.id });
      const table = formatSessionTable(rows, { userHome: env.HOME, showCwd: all });
      return [...warnings, table, "", "Resume one with /resume <id>, or /resume alone to pick."].join("\n");
    },
    /** `/notes`. */
    async notes(): Promise<string> {
      if (!memory) return "Project memory is off (--no-memory).";
      const { entries, notice } = await memory.read();
      return [notice, formatNotes(entries, { path: memory.path })].filter(Boolean).join("\n");
    },
    /** `/memory`: merges the project notes. `onRetry` hears of each wait to send the request again. */
    async memory(signal: AbortSignal, onRetry?: (notice: string) => void): Promise<string> {
      if (!memory) return "Project memory is off (--no-memory).";
      const outcome = await compactMemory({ store: memory, generate: (prompt) => ask({ prompt }, signal, onRetry) });
      // Nothing to merge: someone who typed /memory to see the notes is told where they are.
      const seeThem = outcome.type === "noop" && outcome.notes > 0 ? "/notes lists them." : undefined;
      return [outcome.notice, outcome.message, seeThem].filter(Boolean).join("\n");
    },
    /** `/compact`: the transcript replaced by the model's summary, or kept as it was. `onRetry` as for memory. */
    async compact(signal: AbortSignal, onRetry?: (notice: string) => void): Promise<string> {
      const before = live.history.length;
      if (before === 0) return "Nothing to compact yet.";
      const outcome = await compactTranscript(live.history, (request) => ask(request, signal, onRetry), { tools: conversation.tools });
      if (outcome.type === "failed" && outcome.message === STOPPED) return "Stopped: the transcript was kept as it was.";
      if (outcome.type === "failed") return `The summary request failed, so the transcript was kept as it was: ${outcome.message}`;
      if (outcome.type === "unusable") return "The model's summary was empty or unusable, so the transcript was kept as it was: /compact again to retry, or /clear to start a new conversation.";
      live.replace(outcome.messages);
      undo.markCompact();
      return `Compacted: ${before} messages replaced by a summary (/undo cannot go back past this). The task list and project memory are unchanged.`;
    },
    /**
     * `/undo [files|conversation]`: the latest turn not yet undone goes back (its files, its
     * conversation and task list, or both). Files changed since that turn are listed and
     * overwritten only if `confirm` says yes. Returns the lines to print, and the turn's prompt
     * when the conversation went back (for the input).
     */
    async undo(mode: UndoMode, confirm: (question: string) => Promise<boolean>): Promise<{ lines: string[]; prompt?: string }> {
      const plan = planUndo(undo, mode, live.history);
      if (plan.type === "nothing") return { lines: [`Nothing to undo: ${plan.why}.`] };
      if (plan.type === "compacted") return { lines: [`/undo stops here: ${plan.why}.`] };
      const changed = plan.files.filter((file) => file.changedSince);
      if (changed.length > 0) {
        const { phrase, verb } = overwritePhrase(changed);
        const question = `${describeChangedSince(plan, shown)}. ${phrase[0]!.toUpperCase()}${phrase.slice(1)}? y ${verb} · n cancel `;
        if (!(await confirm(question))) return { lines: ["Nothing was undone."] };
      }
      const outcome = await applyUndo(undo, plan);
      const turn = plan.conversationOf;
      if (turn) {
        live.replace(live.history.slice(0, turn.historyLength));
        conversation.notebook.replace(restoreTodos(turn.todos).todos);
      }
      return { lines: describeUndo(plan, outcome, shown, "/undo"), ...(turn ? { prompt: withoutAttachments(turn.prompt) } : {}) };
    },
    /** `/diff` (the last turn that changed files) and `/diff session` (every file the session changed, against its start). */
    diff(scope: "turn" | "session"): { title: string; files: FileChange[] } {
      if (scope === "session") {
        const files = sessionChanges(undo);
        return { title: files.length > 0 ? `What this session changed (${files.length === 1 ? "1 file" : `${files.length} files`}):` : "This session has not changed any file.", files };
      }
      const last = lastTurnChanges(undo);
      if (!last) return { title: "The last turn changed no files (or they were undone).", files: [] };
      const prompt = last.entry.prompt.length > 60 ? last.entry.prompt.slice(0, 59) + "…" : last.entry.prompt;
      return { title: `What the turn ${JSON.stringify(prompt)} changed:`, files: last.files };
    },
    /** A path as the screen shows it: relative to where shiro runs. */
    shown: (path: string) => shown(path),
    /** Resolves when no step's save is still being written (await it before exitMessage). */
    settled: () => live.settled(),
    /** Flushes and releases the session; returns what to print on the way out. */
    exitMessage(): string {
      stopTodos();
      live.close();
      runtime.commands.runner.close();
      // After /clear with nothing said since, point at the conversation that was saved.
      return live.history.length === 0 && previous ? previous.exitMessage() : live.exitMessage();
    },
  };
}
