import { homedir } from "node:os";
import type { Conversation } from "../../lib/agent/conversation.ts";
import { generate, type GenerateRequest } from "../../lib/agent/generate.ts";
import type { Runtime } from "../../lib/agent/runtime.ts";
import { startConversation, type SessionChoice } from "../../lib/app/start.ts";
import { compactMemory, formatNotes, type MemoryStore } from "../../lib/memory/index.ts";
import { callOptions } from "../../lib/provider/call-options.ts";
import { createModel } from "../../lib/provider/model.ts";
import type { Todo } from "../../lib/notebook/schema.ts";
import { createPermissionPolicy, type AskAnswer, type PermissionQuestion } from "../../lib/permissions/index.ts";
import { compactTranscript } from "../../lib/prune/compact-summary.ts";
import { findSession } from "../../lib/sessions/find.ts";
import { listSessions } from "../../lib/sessions/list.ts";
import { formatSessionTable, RECENT_SESSIONS, sessionRows } from "../../lib/sessions/list-format.ts";
import type { LiveSession } from "../../lib/sessions/live-session.ts";
import { shortestUniquePrefix } from "../../lib/sessions/prefix.ts";
import { formatUsd } from "../../lib/sessions/pricing.ts";
import { listSessionIds } from "../../lib/sessions/store.ts";
import { sessionChoice, type MainArgs } from "../args.ts";

type Env = Record<string, string | undefined>;

/** What the interactive loop works with; see openReplSession. */
export type ReplSession = Awaited<ReturnType<typeof openReplSession>>;

/**
 * The interactive loop's session: the one live conversation (sessions, memory, the task list),
 * what it costs, the permission engine, and what the slash commands do with them. One live
 * session at a time: /clear and /resume close the current one (flushing it) before the next is
 * opened, so this process never holds two. Opens the first conversation (-c/-r honoured) before
 * it resolves; a ShiroError from -c/-r finding nothing ends the loop before it starts.
 */
export async function openReplSession(args: MainArgs, env: Env, startRuntime: Runtime, opts: { onTodos(todos: readonly Todo[]): void }) {
  let runtime = startRuntime;
  let live!: LiveSession;
  let conversation!: Conversation;
  /** The last session closed by /clear or /resume that had messages: what to offer on exit if the current one has none. */
  let previous: LiveSession | undefined;
  let memory: MemoryStore | undefined;
  let stopTodos = () => {};
  const maxSpend = runtime.settings.maxSpendUsd;

  /** The shortest unique prefix (at least 8), as the exit message prints it. */
  const label = (session: LiveSession) => {
    const ids = listSessionIds(runtime.home);
    return shortestUniquePrefix(session.id, ids.includes(session.id) ? ids : [...ids, session.id]);
  };
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
      record = choice.type === "resume" ? findSession(runtime.home, choice.idOrPrefix) : undefined;
      live.close();
      if (live.history.length > 0) previous = live;
    }
    const started = await startConversation({ runtime, memory: args.memory, session: record ? { type: "record", record } : choice, onSaveError });
    stopTodos();
    live = started.live;
    memory = started.memory;
    conversation = started.conversation;
    stopTodos = conversation.notebook.onChange(opts.onTodos);
    return started.notices;
  };
  /** One request outside a turn (/compact, /memory): abortable, its tokens booked in the session. */
  const ask = (request: GenerateRequest, signal: AbortSignal) => generate(runtime, request, { signal, book: (usage) => live.book(usage) });

  const startNotices = await open(sessionChoice(args));
  // However the process ends (even a forced exit), the session is flushed and released, and the sandbox ended.
  process.on("exit", () => (live.close(), runtime.commands.runner.close()));

  return {
    startNotices,
    runtime: () => runtime,
    conversation: () => conversation,
    /** The session id prefix for the header; undefined while nothing is saved ("new session"). */
    label: () => (live.history.length > 0 ? label(live) : undefined),
    /** USD spent in this session across resumes; "unpriced" when its model has no price. */
    spent: (): number | "unpriced" => live.totals().costUsd ?? "unpriced",
    /** The spend ceiling, asked before each prompt: `refuse` stops the turn; `notice` is printed first. */
    beforeTurn(): { refuse?: string; notice?: string } | undefined {
      if (maxSpend === undefined) return undefined;
      const cost = live.totals().costUsd;
      if (cost === undefined) return { notice: `${runtime.settings.model} has no known price, so the ${formatUsd(maxSpend)} spend limit cannot be enforced.` };
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
      }),
    /** `/clear`: a new, empty session. */
    clear: () => open({ type: "new" }),
    /** `/resume <id>`: throws ShiroError when there is no such session (the current one then stays). */
    async resume(id: string): Promise<{ notices: readonly string[]; message: string }> {
      const notices = await open({ type: "resume", idOrPrefix: id });
      return { notices, message: `resumed session ${label(live)}: ${live.history.length} messages` };
    },
    /** `/model <id>`: later turns use it, and the session records and prices them with it. */
    async switchModel(model: string): Promise<void> {
      const settings = { ...runtime.settings, model };
      runtime = { ...runtime, settings, model: await createModel(settings), callOptions: callOptions(settings) };
      conversation.useRuntime(runtime);
      live.setModel(settings.provider, settings.model);
    },
    /** `/save`. */
    save: () => (live.save() ? `Saved ${live.history.length} messages to session ${label(live)}.` : "Nothing to save yet: the session has no messages."),
    /** `/sessions`. */
    sessions(): string {
      const listing = listSessions(runtime.home, { all: true, limit: RECENT_SESSIONS });
      const warnings = listing.warnings.map((w) => `warning: ${w}`);
      if (listing.sessions.length === 0) return [...warnings, "No saved sessions yet."].join("\n");
      const table = formatSessionTable(sessionRows(listing.sessions, { allIds: listing.allIds, now: new Date() }), { userHome: env.HOME, showCwd: true });
      return [...warnings, table, "", "Resume one with /resume <id>."].join("\n");
    },
    /** `/notes`. */
    async notes(): Promise<string> {
      if (!memory) return "Project memory is off (--no-memory).";
      const { entries, notice } = await memory.read();
      return [notice, formatNotes(entries, { path: memory.path })].filter(Boolean).join("\n");
    },
    /** `/memory`: merges the project notes. */
    async memory(signal: AbortSignal): Promise<string> {
      if (!memory) return "Project memory is off (--no-memory).";
      const outcome = await compactMemory({ store: memory, generate: (prompt) => ask({ prompt }, signal) });
      return [outcome.notice, outcome.message].filter(Boolean).join("\n");
    },
    /** `/compact`: the transcript replaced by the model's summary, or kept as it was. */
    async compact(signal: AbortSignal): Promise<string> {
      const before = live.history.length;
      if (before === 0) return "Nothing to compact yet.";
      const outcome = await compactTranscript(live.history, (request) => ask(request, signal), { tools: conversation.tools });
      if (outcome.type === "failed") return `The summary request failed, so the transcript was kept as it was: ${outcome.message}`;
      if (outcome.type === "unusable") return "The model's summary was empty or unusable, so the transcript was kept as it was.";
      live.replace(outcome.messages);
      return `Compacted: ${before} messages replaced by a summary. The task list and project memory are unchanged.`;
    },
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
