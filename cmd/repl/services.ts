import type { Conversation } from "../../lib/agent/conversation.ts";
import type { Runtime } from "../../lib/agent/runtime.ts";
import type { Usage } from "../../lib/events.ts";
import type { PermissionHook } from "./approval-gate.ts";

/** Why a conversation is being made: the loop starting, or `/clear` (a new, empty one). */
export type ConversationInit = { reason: "start" | "clear" };

/** A conversation, optionally with one-line notices to show the user (a fork, a store set aside). */
export type MadeConversation = Conversation | { conversation: Conversation; notices?: readonly string[] };

/** What a slash-command handler gets: the arguments after the name and the live session. */
export type CommandContext = { args: string; conversation: Conversation; runtime: Runtime; signal: AbortSignal };

/** Returns the text to print (may be several lines; "" prints nothing). Throwing prints the message in red. */
export type CommandHandler = (ctx: CommandContext) => string | Promise<string>;

/**
 * Features other parts of shiro plug into the loop. Every member is optional: a missing one
 * makes its slash command say "not available yet" (never a silent no-op) and leaves the
 * default in place. cmd/repl.ts passes whatever is wired; the loop itself imports none of them.
 */
export type ReplServices = {
  /**
   * Builds the conversation at start and on `/clear`: the place for sessions (autosave hooks),
   * memory (extraTools, memoryBlock) and -c/-r at start. Default: createConversation({ runtime }).
   */
  newConversation?: (runtime: Runtime, init: ConversationInit) => MadeConversation | Promise<MadeConversation>;
  /** The session id prefix for the header; undefined shows "new session". */
  sessionLabel?: () => string | undefined;
  /** What to print on the way out (flush and release the session here); should end with a newline. Default "Good bye.\n". */
  exitMessage?: (conversation: Conversation) => string | Promise<string>;
  /** USD for `usage` on `model`, undefined when the model has no price. Feeds the status line and `/cost`. */
  costUsd?: (model: string, usage: Usage) => number | undefined;
  /** After `/model <id>` switched runtime.model and runtime.settings (sessions record and price by model). */
  modelChanged?: (runtime: Runtime) => void;
  /**
   * The permission engine (lib/permissions' createPermissionPolicy with interactive: true): gets
   * the loop's `ask` and returns the approver. Default: tools that change files or run commands
   * ask; "always" covers the tool, or for bash the command's first word (`git *`); --yolo skips.
   */
  permissions?: PermissionHook;
  /**
   * Asked before each prompt runs: `refuse` stops the turn with that line (the spend ceiling),
   * `notice` is printed first (80% of the ceiling).
   */
  beforeTurn?: () => { refuse?: string; notice?: string } | undefined;
  /** What this session has cost so far, across resumes; "unpriced" when its model has no price. */
  spent?: () => number | "unpriced";
  /** `/notes`. */
  notes?: CommandHandler;
  /** `/memory`. */
  memory?: CommandHandler;
  /** `/compact`: may rewrite conversation.history in place; returns what happened. */
  compact?: CommandHandler;
  /** `/sessions`. */
  sessions?: CommandHandler;
  /** `/save`. */
  save?: CommandHandler;
  /**
   * `/resume <id>` (ctx.args): opens that session and returns its conversation, which replaces
   * the current one, and a line to print. Throw (ShiroError) with a message that says what to do
   * when there is no such session; the current conversation then stays.
   */
  resume?: (ctx: CommandContext) => Promise<{ conversation: MadeConversation; message?: string }>;
};
