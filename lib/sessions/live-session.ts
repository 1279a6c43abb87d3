import type { ModelMessage } from "ai";
import type { Usage } from "../events.ts";
import { systemProbe } from "../fs/process-alive.ts";
import { createAutosaver } from "./autosave.ts";
import { exitMessage, headlessExitLine } from "./exit-message.ts";
import { acquireSession } from "./ownership.ts";
import { lastingPrefix } from "./prefix.ts";
import { checkSpend, costUsd } from "./pricing.ts";
import { copySessionJournal } from "./fork.ts";
import { forkRecord, newSessionRecord } from "./record.ts";
import type { SessionRecord, SubagentTranscript } from "./schema.ts";
import { checkRecord, listSessionIds } from "./store.ts";
import { openSessionFile } from "./session-file.ts";
import { sessionPath } from "./paths.ts";
import { sweepLeftovers } from "./sweep.ts";
import { titleFromMessages } from "./title.ts";
import { sessionOutcome } from "./outcome.ts";
import type { LiveSession, OpenSessionOptions } from "./live-session-types.ts";

export type { LiveSession, OpenSessionOptions } from "./live-session-types.ts";

/**
 * One running session: the record, its debounced autosave, its lock, its cost. A new session,
 * or the continuation of `resume` — or, when another live shiro holds `resume`, a fork of it
 * under a new id (`forkedFrom`, `notice`), so neither process overwrites the other's work.
 * Nothing is written until the session has a message; from then on every change is, emptying included.
 */
export function openLiveSession(opts: OpenSessionOptions): LiveSession {
  const now = opts.now ?? (() => new Date());
  const newId = opts.newId ?? (() => Bun.randomUUIDv7());
  const probe = opts.probe ?? systemProbe;
  sweepLeftovers(opts.home, { probe });

  let base: SessionRecord;
  let fork: { id: string; holderPid: number } | undefined;
  let release: () => void;
  /** Messages in the file on disk: what the exit message may promise. */
  let savedCount = 0;

  const claimed = opts.resume ? acquireSession(opts.home, opts.resume.id, probe) : undefined;
  if (opts.resume && claimed?.ok) {
    base = { ...opts.resume, cwd: opts.cwd, provider: opts.provider, model: opts.model };
    release = claimed.release;
    savedCount = opts.resume.messages.length;
  } else {
    const id = newId();
    const lock = acquireSession(opts.home, id, probe);
    release = lock.ok ? lock.release : () => {};
    if (opts.resume && claimed && !claimed.ok) {
      fork = { id: opts.resume.id, holderPid: claimed.holderPid };
      copySessionJournal(opts.home, opts.resume.id, id); // the copy can undo and rewind too
      base = { ...forkRecord(opts.resume, { id, now: now() }), cwd: opts.cwd, provider: opts.provider, model: opts.model };
    } else {
      const fresh = costUsd(opts.model, { inputTokens: 0, outputTokens: 0 });
      base = newSessionRecord({ id, now: now(), cwd: opts.cwd, provider: opts.provider, model: opts.model, ...(fresh !== undefined ? { costUsd: fresh } : {}) });
    }
  }

  const file = openSessionFile(sessionPath(opts.home, base.id));
  /** A complete, durable write now, on this thread (exit handlers, /save, after a background rename that may have put an older state in place). */
  function saveSync(record: SessionRecord) {
    checkRecord(record);
    file.saveSync(record);
  }

  let messages: ModelMessage[] = [...base.messages];
  let subagents: SubagentTranscript[] = [...(base.subagents ?? [])];
  let totals: { inputTokens: number; outputTokens: number; cachedInputTokens?: number; costUsd: number | undefined } = {
    inputTokens: base.inputTokens,
    outputTokens: base.outputTokens,
    ...(base.cachedInputTokens ? { cachedInputTokens: base.cachedInputTokens } : {}),
    // A record without a cost but with tokens ran on an unpriced model: it stays unpriced.
    costUsd: base.costUsd ?? (base.inputTokens + base.outputTokens === 0 ? costUsd(base.model, { inputTokens: 0, outputTokens: 0 }) : undefined),
  };
  const unpriced = new Set<string>(totals.costUsd === undefined ? [base.model] : []);
  let provider = base.provider;
  let model = base.model;
  let warned = false;
  let closed = false;

  /** This session's prefix to type later: unique among the saved ones, and staying so (lastingPrefix). */
  function idPrefix(): string {
    return lastingPrefix(base.id, listSessionIds(opts.home));
  }

  /** The step under way (inProgress), until the next append or replace. */
  let underWay: readonly ModelMessage[] = [];

  function snapshot(): SessionRecord {
    // Every field of the record comes from base unless the running session changes it, so a field
    // added to the schema survives a save without a line here.
    const { costUsd: _cost, cachedInputTokens: _cached, outcome: _outcome, ...kept } = base;
    const saved = underWay.length > 0 ? [...messages, ...underWay] : messages;
    const outcome = sessionOutcome(saved);
    return {
      ...kept,
      ...(outcome ? { outcome } : {}),
      updatedAt: now().toISOString(),
      provider,
      model,
      title: base.title || titleFromMessages(messages),
      inputTokens: totals.inputTokens,
      outputTokens: totals.outputTokens,
      ...(totals.cachedInputTokens ? { cachedInputTokens: totals.cachedInputTokens } : {}),
      ...(totals.costUsd !== undefined ? { costUsd: totals.costUsd } : {}),
      notebook: { ...base.notebook, todos: [...(opts.todos ? opts.todos() : Array.isArray(base.notebook.todos) ? base.notebook.todos : [])] },
      ...(subagents.length > 0 ? { subagents } : {}),
      messages: saved,
    };
  }

  /** Adds `usage` to the totals, priced at `pricedAs` (the model in use now); an unpriced call makes the session unpriced. */
  function addUsage(usage: Usage, pricedAs = model) {
    const cost = usage.costUsd ?? costUsd(pricedAs, usage);
    if (cost === undefined) unpriced.add(pricedAs);
    const cached = (totals.cachedInputTokens ?? 0) + (usage.cachedInputTokens ?? 0);
    // Nothing spent yet counts as nothing, whatever the price table knows: a cost the server states is then the whole cost.
    const before = totals.costUsd ?? (totals.inputTokens + totals.outputTokens === 0 ? 0 : undefined);
    totals = {
      inputTokens: totals.inputTokens + usage.inputTokens,
      outputTokens: totals.outputTokens + usage.outputTokens,
      ...(cached > 0 ? { cachedInputTokens: cached } : {}),
      costUsd: before === undefined || cost === undefined ? undefined : before + cost,
    };
  }

  /** Writes now; a failure is reported and the debounce timer retries on the next change. */
  function saveNow() {
    try {
      saver.flush();
    } catch (error) {
      opts.onSaveError?.(error);
    }
  }

  /**
   * Saves written by the thread pool (session-file.ts): the timed save after every change
   * (`durable`: with an fsync), and the save right after a step that changed the workspace,
   * started at once so a process killed a moment later still has the step on record, while the
   * next request goes out (no fsync: the timed save that append also schedules makes it durable
   * within AUTOSAVE_DEBOUNCE_MS). One at a time; a save asked for while one is in flight is
   * written when it lands. Every save bumps `generation`, which makes an older background write
   * stale; a synchronous one that bumped it while the background rename was already on its way
   * may have been replaced by the older file, so the newest state is written again then.
   * close() waits for nothing (exit handlers cannot): it writes, and leaves releasing the session
   * to the background write when one is in flight, so no late rename lands after another process
   * has taken the session. `settled()` is what a normal way out awaits first.
   */
  let generation = 0;
  let inFlight: Promise<void> | undefined;
  /** A save was asked for while one was in flight; `againDurable`: one of them wanted an fsync. */
  let again = false;
  let againDurable = false;
  let releaseWhenSettled = false;
  function saveInBackground(durable: boolean): Promise<void> {
    if (inFlight) {
      again = true;
      againDurable ||= durable;
      return inFlight;
    }
    const mine = ++generation;
    let failure: unknown;
    const record = snapshot();
    const write = (target: SessionRecord, options: { durable: boolean; commit: () => boolean }) => file.saveInBackground(target, options);
    inFlight = (async () => {
      try {
        checkRecord(record);
        const replaced = await (opts.writeInBackground ?? ((r, o, w) => w(r, o)))(record, { durable, commit: () => generation === mine && !closed }, write);
        if (replaced && generation !== mine) writeNewest();
        else if (replaced) {
          savedCount = record.messages.length;
          if (!base.title) base = { ...base, title: record.title };
        }
      } catch (error) {
        failure = error;
      }
    })().finally(() => {
      inFlight = undefined;
      if (closed) {
        if (releaseWhenSettled) release();
      } else if (again) {
        again = false;
        const wantDurable = againDurable;
        againDurable = false;
        void saveInBackground(wantDurable);
      }
    });
    return inFlight.then(() => {
      if (failure !== undefined) throw failure;
    });
  }

  /**
   * saveInBackground on the event loop's next turn: the step's next request is sent first, and
   * the record is encoded while the model answers it.
   */
  let queued = false;
  function saveSoonInBackground() {
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      if (!closed) saveInBackground(false).catch((error: unknown) => opts.onSaveError?.(error));
    });
  }

  /** The current state, synchronously, after a background rename may have put an older one in its place. */
  function writeNewest() {
    generation++;
    try {
      const record = snapshot();
      saveSync(record);
      savedCount = record.messages.length;
    } catch (error) {
      opts.onSaveError?.(error);
    }
  }

  const saver = createAutosaver({
    save: () => {
      const record = snapshot();
      generation++;
      saveSync(record);
      savedCount = record.messages.length;
      if (!base.title) base = { ...base, title: record.title };
    },
    // The timer's save is written by the thread pool, from the previous file where it can: a long
    // session costs the loop the new messages' encoding, not the whole file's (session-file.ts).
    saveLater: () => saveInBackground(true),
    // Nothing is written before the first message; once a file exists it follows the conversation,
    // down to no messages at all (every turn undone), so a resume never brings back what was undone.
    shouldSave: () => messages.length > 0 || savedCount > 0,
    ...(opts.debounceMs !== undefined ? { debounceMs: opts.debounceMs } : {}),
    ...(opts.timers ? { timers: opts.timers } : {}),
    ...(opts.onSaveError ? { onError: opts.onSaveError } : {}),
  });
  // A fork is a new file: written at the first save even if nothing new is said.
  if (fork) saver.schedule();

  const notice = fork
    ? (() => {
        const ids = [...listSessionIds(opts.home), base.id];
        return `Session ${lastingPrefix(fork.id, ids)} is open in another shiro (pid ${fork.holderPid}), so this conversation continues as a copy, ${lastingPrefix(base.id, ids)}. Both are kept.`;
      })()
    : undefined;

  return {
    get id() {
      return base.id;
    },
    get history() {
      return messages;
    },
    ...(fork ? { forkedFrom: fork } : {}),
    ...(notice ? { notice } : {}),
    totals: () => ({ ...totals }),
    unpricedModels: () => [...unpriced],
    append(added, usage) {
      if (closed) return;
      messages = [...messages, ...added];
      underWay = [];
      if (usage) addUsage(usage);
      saver.schedule();
      // The timer still writes it (or exit does): that save also brings savedCount up to date.
      if (opts.changesWorkspace && calledTool(added, opts.changesWorkspace)) saveSoonInBackground();
    },
    replace(next) {
      if (closed) return;
      messages = [...next];
      underWay = [];
      saver.schedule();
    },
    inProgress(step) {
      if (closed) return;
      underWay = [...step];
      saver.schedule();
      if (opts.changesWorkspace && calledTool(step, opts.changesWorkspace)) saveSoonInBackground();
    },
    book(usage) {
      if (closed) return;
      addUsage(usage);
      saver.schedule();
    },
    touch() {
      if (!closed) saver.schedule();
    },
    nameIfUntitled(title) {
      if (!closed && !base.title && title) base = { ...base, title };
    },
    recordSubagent(transcript) {
      if (closed) return;
      const usage = { inputTokens: transcript.inputTokens, outputTokens: transcript.outputTokens };
      const cost = costUsd(transcript.model, usage);
      subagents = [...subagents, { ...transcript, ...(cost !== undefined ? { costUsd: cost } : {}) }];
      addUsage(usage, transcript.model);
      saver.schedule();
    },
    subagentTotals() {
      let sum = { inputTokens: 0, outputTokens: 0, costUsd: 0 as number | undefined, count: subagents.length };
      for (const t of subagents) {
        sum = {
          inputTokens: sum.inputTokens + t.inputTokens,
          outputTokens: sum.outputTokens + t.outputTokens,
          costUsd: sum.costUsd === undefined || t.costUsd === undefined ? undefined : sum.costUsd + t.costUsd,
          count: sum.count,
        };
      }
      return sum;
    },
    save() {
      if (closed) return false;
      saver.schedule();
      return saver.flush();
    },
    goal: () => base.goal,
    setGoal(goal) {
      const { goal: _old, ...rest } = base;
      base = goal ? { ...rest, goal } : rest;
      saver.schedule();
    },
    setModel(nextProvider, nextModel) {
      provider = nextProvider;
      model = nextModel;
      saver.schedule();
    },
    checkSpend(maxSpendUsd) {
      const status = checkSpend(totals.costUsd, maxSpendUsd);
      if (status !== "warn") return status;
      if (warned) return "ok";
      warned = true;
      return "warn";
    },
    snapshot: () => ({ ...snapshot(), messages: [...messages] }),
    close() {
      if (closed) return;
      // A background save in flight may not land before the process ends: this one is written now.
      if (inFlight) saver.schedule();
      closed = true;
      saveNow();
      saver.dispose();
      if (inFlight) releaseWhenSettled = true;
      else release();
    },
    async settled() {
      while (inFlight || queued) await (inFlight ?? new Promise((next) => setImmediate(next)));
    },
    exitMessage() {
      return exitMessage({ messageCount: savedCount, title: base.title || titleFromMessages(messages), idPrefix: idPrefix() });
    },
    exitLine: () => headlessExitLine({ messageCount: savedCount, idPrefix: idPrefix() }),
  };
}

/** True when an assistant message among `messages` called a tool for which `matches` holds. */
function calledTool(messages: readonly ModelMessage[], matches: (toolName: string, input: unknown) => boolean): boolean {
  return messages.some((m) => m.role === "assistant" && typeof m.content !== "string" && m.content.some((part) => part.type === "tool-call" && matches(part.toolName, part.input)));
}
