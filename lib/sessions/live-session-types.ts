import type { ModelMessage } from "ai";
import type { Usage } from "../events.ts";
import type { LivenessProbe } from "../fs/process-alive.ts";
import type { Timers } from "./autosave.ts";
import type { SpendStatus } from "./pricing.ts";
import type { GoalState, SessionRecord, SubagentTranscript } from "./schema.ts";
import type { SessionFile } from "./session-file.ts";

// What a live session is, and what opening one takes; openLiveSession (live-session.ts) makes one.
export type OpenSessionOptions = {
  home: string;
  cwd: string;
  /** The model in use now. A resumed session takes the current one, not the one it was saved with. */
  provider: string;
  model: string;
  /** A record to continue (continueSession / findSession). Omitted: a new session. */
  resume?: SessionRecord;
  /** The current task list, read at every save (e.g. `() => notebook.todos()`). */
  todos?: () => readonly unknown[];
  /** Where a failed timed save is reported (e.g. as a notice). Saving is retried on the next change. */
  onSaveError?: (error: unknown) => void;
  /**
   * True for calls that change the workspace (write files, run a command that does not only
   * read). A step that made one is written at once rather than on the debounce timer: a crash
   * right after it must not lose the record of what was done to the files.
   */
  changesWorkspace?: (toolName: string, input: unknown) => boolean;
  debounceMs?: number;
  timers?: Timers;
  /** Around each background write (session-file.ts saveInBackground, passed as `write`): tests put a hook around its commit check. */
  writeInBackground?: (record: SessionRecord, opts: { durable: boolean; commit: () => boolean }, write: SessionFile["saveInBackground"]) => Promise<boolean>;
  now?: () => Date;
  newId?: () => string;
  probe?: LivenessProbe;
};

export type LiveSession = {
  readonly id: string;
  /** The session's history. Only this object changes it: through append and replace. */
  readonly history: readonly ModelMessage[];
  /** Set when the requested session was held by another live shiro and this is a copy of it. */
  readonly forkedFrom?: { id: string; holderPid: number };
  /** One line for the user when this is a fork; undefined otherwise. */
  readonly notice?: string;
  /** Totals for the whole session, including earlier runs. `costUsd` undefined: unpriced. */
  totals(): Usage & { costUsd: number | undefined };
  /**
   * The models whose tokens made the session unpriced (no price in shiro's table), in the order they
   * were first booked; a resumed session that was saved unpriced names its saved model. Empty while priced.
   */
  unpricedModels(): string[];
  /**
   * Adds messages at the end (the user's prompt, a step's output) and books the tokens they cost
   * at the current model's price. Saves soon (debounced), or at once when the messages called a
   * tool that changes the workspace.
   */
  append(messages: readonly ModelMessage[], usage?: Usage): void;
  /** Replaces the whole history (the inline re-send, the end-of-turn repair, /compact); saves soon. */
  replace(messages: readonly ModelMessage[]): void;
  /**
   * The step under way, as far as it went (its text and calls): written after the history by
   * every save until the next append or replace takes its place, so a process killed while a
   * command runs keeps the call on record (the repair closes it as interrupted). Not part of
   * `history`. Saved at once, in the background, when a call changes the workspace.
   */
  inProgress(messages: readonly ModelMessage[]): void;
  /** Books tokens spent outside a turn (/compact, /memory) the way a step's are; saves soon. */
  book(usage: Usage): void;
  /**
   * A subagent ended: its transcript is kept with the session (not in the history) and its tokens
   * are booked in the totals, priced at the model it ran on. Saves soon.
   */
  recordSubagent(transcript: Omit<SubagentTranscript, "costUsd">): void;
  /** What subagents have used in this session, earlier runs included (part of totals()). */
  subagentTotals(): Usage & { costUsd: number | undefined; count: number };
  /** Something else changed (the task list): save soon. */
  touch(): void;
  /**
   * Names a session that has no title yet (a resumed one keeps its own). For a prompt whose text
   * sent is more than the person typed (piped stdin after it), so the title is what they typed.
   */
  nameIfUntitled(title: string): void;
  /** /save: writes now, synchronously. False when there is nothing to write (no messages). Throws on I/O failure. */
  save(): boolean;
  /** The session's goal (docs/goals.md), undefined without one. */
  goal(): GoalState | undefined;
  /** Sets, updates or (undefined) ends the goal; saves soon. */
  setGoal(goal: GoalState | undefined): void;
  /** /model: later turns are priced and recorded with this model. */
  setModel(provider: string, model: string): void;
  /**
   * The spend ceiling before a turn: "over" → refuse the turn (exit 4 headless); "warn" is
   * returned once per session, from 80%; else "ok".
   */
  checkSpend(maxSpendUsd: number | undefined): SpendStatus;
  /** The record as it would be written now. */
  snapshot(): SessionRecord;
  /**
   * Flushes a pending save and releases the session for other processes. Synchronous,
   * idempotent, never throws (a failed save goes to onSaveError): call it from exit, SIGINT
   * and SIGTERM handlers as well as on the normal way out.
   */
  close(): void;
  /** Resolves when no background write is in flight: await it before close() on a normal way out. */
  settled(): Promise<void>;
  /** The exit text (exit-message.ts) for what is on disk. */
  exitMessage(): string;
  /** The one line headless text mode ends with (exit-message.ts). */
  exitLine(): string;
};
