import type { Conversation } from "../../lib/agent/conversation.ts";
import type { Runtime } from "../../lib/agent/runtime.ts";
import { createModel } from "../../lib/model.ts";
import { renderTodos } from "../../lib/notebook/render.ts";
import { commandHelpLines, type SlashName } from "../../lib/slash-commands.ts";
import { formatUsd } from "../../lib/sessions/pricing.ts";
import type { CommandContext, CommandHandler, ConversationInit, MadeConversation, ReplServices } from "./services.ts";
import type { Theme } from "./theme.ts";

/** What the loop lends a command: the session, and a way to print and to start over. */
export type CommandEnv = {
  runtime: Runtime;
  services: ReplServices;
  theme: Theme;
  /** Aborted by esc, ctrl-c or exit while the command runs. */
  signal: AbortSignal;
  conversation(): Conversation;
  /** Makes a new conversation and uses it; returns its notices. */
  newConversation(init: ConversationInit): Promise<readonly string[]>;
  /** Uses `made` from now on; returns its notices. */
  adopt(made: MadeConversation): readonly string[];
  /** USD spent in this conversation, "unpriced", or undefined when no pricing is wired. */
  spent(): number | "unpriced" | undefined;
  print(text: string): void;
};

const KEYS = [
  "enter send · ctrl-j, shift-enter or a trailing \\ for a new line",
  "esc interrupt the turn and drop queued prompts · type during a turn to queue",
  "ctrl-c stop a running command (the turn goes on) · at the prompt: clear the line, twice to exit",
  "ctrl-d exit (on an empty line) · up/down prompt history · tab complete /commands and @paths",
];

/** Which feature each pluggable command waits for, for the "not available yet" line. */
const PENDING: Record<"notes" | "memory" | "compact" | "sessions" | "resume" | "save", string> = {
  notes: "project notes come with project memory",
  memory: "project memory is not wired into this build",
  compact: "compaction is not wired into this build",
  sessions: "saved sessions are not wired into this build",
  resume: "saved sessions are not wired into this build",
  save: "saved sessions are not wired into this build",
};

/**
 * Runs one slash command. Every name in the table has a handler here (the Record type makes a
 * missing one a compile error). Returns "exit" for /exit.
 */
export async function runCommand(name: SlashName, args: string, env: CommandEnv): Promise<"exit" | undefined> {
  const ctx = (): CommandContext => ({ args, conversation: env.conversation(), runtime: env.runtime, signal: env.signal });
  const plug = async (key: keyof typeof PENDING, handler: CommandHandler | undefined) => {
    if (!handler) return env.print(env.theme.warn(`/${key} is not available yet: ${PENDING[key]}.`));
    const text = await handler(ctx());
    if (text) env.print(text);
  };
  const handlers: Record<SlashName, () => Promise<void> | void> = {
    help: () => {
      const { theme } = env;
      env.print([theme.bold("Commands"), ...commandHelpLines().map((l) => "  " + l), theme.bold("Keys"), ...KEYS.map((l) => "  " + l)].join("\n"));
    },
    todos: () => env.print(renderTodos(env.conversation().notebook.todos()) || "The task list is empty."),
    notes: () => plug("notes", env.services.notes),
    memory: () => plug("memory", env.services.memory),
    compact: () => plug("compact", env.services.compact),
    sessions: () => plug("sessions", env.services.sessions),
    save: () => plug("save", env.services.save),
    resume: async () => {
      if (!env.services.resume) return plug("resume", undefined);
      if (!args) return env.print(env.theme.warn("usage: /resume <id> — /sessions lists the ids."));
      const found = await env.services.resume(ctx());
      for (const notice of env.adopt(found.conversation)) env.print(env.theme.warn(notice));
      if (found.message) env.print(found.message);
    },
    cost: () => env.print(costReport(env)),
    clear: async () => {
      for (const notice of await env.newConversation({ reason: "clear" })) env.print(env.theme.warn(notice));
      env.print(env.theme.dim("Started a new conversation; the task list is empty."));
    },
    model: async () => {
      const { runtime } = env;
      if (!args) return env.print(`model: ${runtime.settings.model} (${runtime.settings.provider}, ${runtime.settings.baseURL})`);
      if (/\s/.test(args)) return env.print(env.theme.warn("usage: /model <id>, e.g. /model gpt-5-mini"));
      const settings = { ...runtime.settings, model: args };
      runtime.model = await createModel(settings);
      runtime.settings = settings;
      env.services.modelChanged?.(runtime);
      env.print(`model: ${args} from the next prompt on.`);
    },
    exit: () => {},
  };
  await handlers[name]();
  return name === "exit" ? "exit" : undefined;
}

function costReport(env: CommandEnv): string {
  const usage = env.conversation().usage;
  const total = usage.inputTokens + usage.outputTokens;
  const tokens = `tokens: ${usage.inputTokens.toLocaleString("en-US")} in · ${usage.outputTokens.toLocaleString("en-US")} out · ${total.toLocaleString("en-US")} total`;
  const spent = env.spent();
  const cost =
    spent === undefined
      ? "cost: not available yet (pricing is not wired into this build)"
      : spent === "unpriced"
        ? `cost: unknown — ${env.runtime.settings.model} has no price in shiro's table`
        : `cost: ${formatUsd(spent)}`;
  return `${tokens}\n${cost}`;
}
