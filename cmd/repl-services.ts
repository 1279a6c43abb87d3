import type { ModelMessage } from "ai";
import { homedir } from "node:os";
import type { Conversation } from "../lib/agent/conversation.ts";
import type { Runtime } from "../lib/agent/runtime.ts";
import { startConversation, type SessionChoice } from "../lib/agent/start.ts";
import { describeProviderError } from "../lib/agent/provider-error.ts";
import { compactMemory, formatNotes, type MemoryStore } from "../lib/memory/index.ts";
import { createPermissionPolicy } from "../lib/permissions/index.ts";
import { applyCompactSummary, buildCompactPrompt } from "../lib/prune/compact-summary.ts";
import { findSession } from "../lib/sessions/find.ts";
import { listSessions } from "../lib/sessions/list.ts";
import { formatSessionTable, RECENT_SESSIONS, sessionRows } from "../lib/sessions/list-format.ts";
import type { LiveSession } from "../lib/sessions/live-session.ts";
import { shortestUniquePrefix } from "../lib/sessions/prefix.ts";
import { costUsd, formatUsd } from "../lib/sessions/pricing.ts";
import { listSessionIds } from "../lib/sessions/store.ts";
import type { MainArgs } from "./args.ts";
import { sessionChoice } from "./print.ts";
import type { ReplServices } from "./repl/services.ts";

type Env = Record<string, string | undefined>;

/**
 * Plugs sessions, memory, permissions, compaction and pricing into the interactive loop. One
 * live session at a time: /clear and /resume close the current one (flushing it) before the
 * next is opened, so this process never holds two.
 */
export function replServices(args: MainArgs, env: Env): (runtime: Runtime) => ReplServices {
  return (runtime) => {
    let live: LiveSession | undefined;
    /** The last session closed by /clear or /resume that had messages: what to offer on exit if the current one has none. */
    let previous: LiveSession | undefined;
    let memory: MemoryStore | undefined;
    const retryBaseMs = Number(env.SHIRO_RETRY_BASE_MS) >= 0 && env.SHIRO_RETRY_BASE_MS ? Number(env.SHIRO_RETRY_BASE_MS) : undefined;
    /** The shortest unique prefix (at least 8), as the exit message prints it. */
    const label = (session: LiveSession) => {
      const ids = listSessionIds(runtime.home);
      return shortestUniquePrefix(session.id, ids.includes(session.id) ? ids : [...ids, session.id]);
    };
    const onSaveError = (error: unknown) => process.stderr.write(`shiro: could not save the session: ${error instanceof Error ? error.message : String(error)}\n`);

    // However the process ends (even a forced exit), the session is flushed and released.
    process.on("exit", () => live?.close());

    const open = async (choice: SessionChoice) => {
      // Write what is pending first, so resuming (even this same session) reads the latest file;
      // then resolve the id before closing anything, so a bad id leaves the current session alone.
      try {
        live?.save();
      } catch (error) {
        onSaveError(error);
      }
      const record = choice.type === "resume" ? findSession(runtime.home, choice.idOrPrefix) : undefined;
      live?.close();
      if (live && live.history.length > 0) previous = live;
      const started = await startConversation({ runtime, memory: args.memory, session: record ? { type: "record", record } : choice, retryBaseMs, onSaveError });
      live = started.live;
      memory = started.memory;
      return { conversation: started.conversation, notices: started.notices };
    };
    /**
     * One request outside a turn (/compact, /memory): abortable from the keyboard, and its tokens
     * are counted in the session like a turn's.
     */
    const generate = async (request: { prompt?: string; instructions?: string; messages?: ModelMessage[] }, signal: AbortSignal, conversation?: Conversation) => {
      const { generateText } = await import("ai");
      const result = await generateText({ model: runtime.model, ...request, abortSignal: signal, maxRetries: runtime.settings.maxRetries } as Parameters<typeof generateText>[0]);
      const usage = { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 };
      if (live) live.beginTurn()(live.history, usage);
      if (conversation) {
        conversation.usage.inputTokens += usage.inputTokens;
        conversation.usage.outputTokens += usage.outputTokens;
      }
      return result.text;
    };
    const maxSpend = args.maxSpendUsd ?? runtime.settings.maxSpendUsd;

    return {
      newConversation: (_rt, init) => open(init.reason === "start" ? sessionChoice(args) : { type: "new" }),
      resume: async ({ args: id }) => {
        const opened = await open({ type: "resume", idOrPrefix: id.trim() });
        return { conversation: opened, message: `resumed session ${live ? label(live) : id}: ${live?.history.length ?? 0} messages` };
      },
      sessionLabel: () => (live && live.history.length > 0 ? label(live) : undefined),
      exitMessage: () => {
        if (!live) return "Good bye.\n";
        live.close();
        // After /clear with nothing said since, point at the conversation that was saved.
        return live.history.length === 0 && previous ? previous.exitMessage() : live.exitMessage();
      },
      costUsd: (model, usage) => costUsd(model, usage),
      spent: () => live?.totals().costUsd ?? "unpriced",
      beforeTurn: () => {
        if (!live || maxSpend === undefined) return undefined;
        const cost = live.totals().costUsd;
        if (cost === undefined) return { notice: `${runtime.settings.model} has no known price, so the ${formatUsd(maxSpend)} spend limit cannot be enforced.` };
        const status = live.checkSpend(maxSpend);
        if (status === "over") return { refuse: `this session has cost ${formatUsd(cost)}, at or past its ${formatUsd(maxSpend)} limit. Raise --max-spend or "maxSpendUsd", or /clear to start a new session.` };
        if (status === "warn") return { notice: `this session has cost ${formatUsd(cost)}, over 80% of its ${formatUsd(maxSpend)} limit.` };
        return undefined;
      },
      modelChanged: (rt) => live?.setModel(rt.settings.provider, rt.settings.model),
      permissions: (ask) =>
        createPermissionPolicy({ config: runtime.config, root: runtime.env.root, cwd: runtime.env.cwd, home: env.HOME || homedir(), yolo: args.yolo, interactive: true, ask }),
      save: () => (live?.save() ? `Saved ${live.history.length} messages to session ${label(live)}.` : "Nothing to save yet: the session has no messages."),
      sessions: () => {
        const listing = listSessions(runtime.home, { all: true, limit: RECENT_SESSIONS });
        const warnings = listing.warnings.map((w) => `warning: ${w}`);
        if (listing.sessions.length === 0) return [...warnings, "No saved sessions yet."].join("\n");
        const table = formatSessionTable(sessionRows(listing.sessions, { allIds: listing.allIds, now: new Date() }), { userHome: env.HOME, showCwd: true });
        return [...warnings, table, "", "Resume one with /resume <id>."].join("\n");
      },
      notes: async () => {
        if (!memory) return "Project memory is off (--no-memory).";
        const { entries, notice } = await memory.read();
        return [notice, formatNotes(entries, { path: memory.path })].filter(Boolean).join("\n");
      },
      memory: async ({ signal, conversation }) => {
        if (!memory) return "Project memory is off (--no-memory).";
        const outcome = await compactMemory({ store: memory, generate: (prompt) => generate({ prompt }, signal, conversation) });
        return [outcome.notice, outcome.message].filter(Boolean).join("\n");
      },
      compact: async ({ conversation, signal }) => {
        const history = conversation.history;
        if (history.length === 0) return "Nothing to compact yet.";
        let summary: string;
        try {
          summary = await generate(buildCompactPrompt(history as ModelMessage[], { tools: conversation.tools }), signal, conversation);
        } catch (error) {
          return `The summary request failed, so the transcript was kept as it was: ${describeProviderError(error).message}`;
        }
        const replacement = applyCompactSummary(summary);
        if (!replacement) return "The model's summary was empty or unusable, so the transcript was kept as it was.";
        const before = history.length;
        history.splice(0, history.length, ...replacement);
        live?.touch();
        return `Compacted: ${before} messages replaced by a summary. The task list and project memory are unchanged.`;
      },
    };
  };
}
