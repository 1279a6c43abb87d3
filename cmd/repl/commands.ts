import { initPrompt, initSummary } from "../../lib/agent/init-prompt.ts";
import { renderEvent, sanitize } from "../../lib/render.ts";
import { renderMarkdown } from "../../lib/text/markdown.ts";
import { formatUsd } from "../../lib/sessions/pricing.ts";
import type { RequestEstimate } from "../../lib/agent/request-estimate.ts";
import { formatTokenCount } from "../../lib/prompt/status-line.ts";
import { commandHelpLines, customHelpLines, extraWordsHint, type SlashName } from "../../lib/prompt/slash-commands.ts";
import { termRows } from "../../lib/text/term-list.ts";
import type { CustomCommand } from "../../lib/prompt/custom-commands.ts";
import { NO_SKILLS, skillListing } from "../../lib/skills/skills.ts";
import { THINKING_LEVELS, VARIANTS, VARIANT_NAMES } from "../../lib/config/variants.ts";
import { APPROVAL_MODES } from "../../lib/config/permission-schema.ts";
import { isApprovalMode } from "../../lib/config/resolve.ts";
import { mcpPromptHelpLines } from "../../lib/app/mcp-prompt-run.ts";
import { mcpCommand } from "./mcp-command.ts";
import { describeHooks } from "../../lib/hooks/describe.ts";
import { changeLines } from "./diff-view.ts";
import { todoRows } from "./live-panel.ts";
import type { LastResult } from "./event-view.ts";
import type { ReplSession, SessionOption } from "./session.ts";
import type { Theme } from "./theme.ts";
import type { ChoiceRequest } from "./picker.ts";
import { modelCommand } from "./model-command.ts";
import { goalCommand } from "./goal-command.ts";

/** What the loop lends a command: the session, a way to print, and a signal to stop it. */
export type CommandEnv = {
  session: ReplSession;
  theme: Theme;
  /** Aborted by esc, ctrl-c or exit while the command runs. */
  signal: AbortSignal;
  print(text: string): void;
  /** The last reasoning block the model streamed, in full. */
  lastReasoning(): string;
  /** The last tool result, whole (a command's full output); undefined before the first. */
  lastResult(): LastResult | undefined;
  /** Another conversation is open (/clear, /resume): /last and /reasoning no longer show the one before. */
  forgetLast(): void;
  /** Shows long text through $PAGER when one is set, else prints it. */
  page(text: string): Promise<void>;
  /** The session's whole transcript in $PAGER or the built-in pager (cmd/repl/transcript-view.ts). */
  transcript(): Promise<void>;
  /** The session picker; undefined when the user closed it. */
  /** The session picker; `esc` says what esc does there. */
  pickSession(options: readonly SessionOption[], esc?: string): Promise<string | undefined>;
  /** A list to choose from (cmd/repl/picker.ts); absent when the screen cannot draw one (then the list is printed). */
  pick?: (request: ChoiceRequest) => Promise<string | undefined>;
  /** Prints the conversation so far, condensed (after a resume). */
  replay(): void;
  /** Puts a one-key question under the transcript; resolves with the key: "y", " ", "enter", "escape", … */
  ask(question: string): Promise<string>;
  /** Puts text into the input, to edit and send again (/undo puts the undone prompt there). */
  setInput(text: string): void;
  /** The terminal's width now, for what a command lays out in columns (/help). */
  columns(): number;
  /** Rows of the terminal, for paging; undefined when output is not a terminal (then nothing pages). */
  rows(): number | undefined;
  /** The notes the model suggests for project memory, put to the user one by one (note-review.ts): before /compact. */
  reviewNotes(): Promise<void>;
  /** Sends `prompt` to the model as a turn of its own once the command returns (/init). */
  send(prompt: string): void;
  /** The user's and the project's own commands, for `/help`. */
  custom?: readonly CustomCommand[];
  /** The next request's estimated size against the window: the status line's `ctx` (context-meter.ts). */
  context(): RequestEstimate;
};

/** `/help`'s keys: each row's first key, and what it and the keys after it do. */
const KEYS: readonly (readonly [string, string])[] = [
  ["enter", "send · ctrl-j, shift-enter or a trailing \\ for a new line"],
  ["esc", "interrupt the turn and drop queued prompts · type during a turn to queue · twice at an empty prompt: /rewind"],
  ["ctrl-c", "stop a running command (the turn goes on) · at the prompt: clear the line, twice to exit"],
  ["ctrl-b", "send the running command to the background (/jobs, /kill) · else the cursor left"],
  ["ctrl-d", "exit (on an empty line; during a turn or with prompts queued, press it twice)"],
  ["up/down", "the prompt history"],
  ["ctrl-r", "search the prompt history (again: older; enter takes the match; esc gives the line back)"],
  ["tab", "complete /commands, @paths and @server:uri (MCP resources)"],
  ["ctrl-o", "the transcript: the whole session in a pager (/ search · n/N · q back)"],
  ["shift-tab", "switch the mode: ask → edits → auto → plan"],
  ["!cmd", "run cmd in the workspace (its output goes with your next prompt)"],
  ["@path", "attach a file or directory · @server:uri an MCP server's resource"],
];

/**
 * Runs one slash command. Every name in the table has a handler here (the Record type makes a
 * missing one a compile error). Returns "exit" for /exit.
 */
export async function runCommand(name: SlashName, args: string, env: CommandEnv): Promise<"exit" | undefined> {
  const { session, theme } = env;
  const say = (text: string) => {
    if (text) env.print(text);
  };
  const warnAll = (notices: readonly string[]) => {
    for (const notice of notices) env.print(theme.warn(notice));
  };
  /** A request outside a turn waits to be sent again: said as a turn's retry is. */
  const retried = (notice: string) => env.print(renderEvent({ type: "notice", message: notice }, theme));
  const handlers: Record<SlashName, () => Promise<void> | void> = {
    help: () => {
      // Laid out for the width inside the two columns of indent, so the print does not wrap them again.
      const room = env.columns() - 2;
      const custom = env.custom && env.custom.length > 0 ? [theme.bold("Your commands"), ...customHelpLines(env.custom, room).map((l) => "  " + l)] : [];
      const prompts = mcpPromptHelpLines(session.runtime().mcp, room - 2).map((l) => "  " + l);
      const mcp = prompts.length > 0 ? [theme.bold("MCP prompts (by server; words fill the arguments in order, or name=value)"), ...prompts] : [];
      env.print([theme.bold("Commands"), ...commandHelpLines(room).map((l) => "  " + l), ...custom, ...mcp, theme.bold("Keys"), ...termRows(KEYS, room).map((l) => "  " + l)].join("\n"));
    },
    skills: () => env.print(skillListing(session.runtime().skills ?? NO_SKILLS).join("\n")),
    goal: () => goalCommand(args, env),
    todos: () => env.print(todoRows(session.conversation().notebook.todos(), env.columns() - 1).join("\n") || "The task list is empty."),
    notes: async () => say(await session.notes()),
    memory: async () => say(await session.memory(env.signal, retried)),
    compact: async () => {
      await env.reviewNotes();
      if (env.signal.aborted) return;
      const done = await session.compact(env.signal, retried, args);
      if (done.summary) env.print([theme.dim("── summary of the conversation so far"), ...renderMarkdown(sanitize(done.summary), theme.markdown, env.columns() - 1)].join("\n"));
      say(done.message);
    },
    init: () => {
      const canWrite = session.conversation().tools.some((tool) => tool.mutates && tool.subject.kind === "path");
      if (!canWrite) return env.print(theme.warn(`/init needs an agent that can write files; ${session.runtime().settings.agent} cannot. /agent default switches back.`));
      env.print(theme.dim(initSummary(session.runtime().workspace, args)));
      env.send(initPrompt(session.runtime().workspace, args));
    },
    sessions: () => say(session.sessions(args.trim() !== "")),
    save: () => say(session.save()),
    resume: async () => {
      let id = args.trim();
      if (!id) {
        // The session open now is not offered: resuming it would change nothing.
        const listing = session.resumable();
        warnAll(listing.warnings);
        const options = listing.options.filter((option) => option.id !== session.id());
        if (options.length === 0) return env.print("No other saved sessions in this directory. /sessions --all lists every directory's; /resume <id> opens one.");
        const picked = await env.pickSession(options, "keeps the current session");
        if (!picked) return env.print(theme.dim("Kept the current session."));
        id = picked;
      }
      const resumed = await session.resume(id);
      env.forgetLast();
      warnAll(resumed.notices);
      env.replay();
    },
    last: async () => {
      const result = env.lastResult();
      if (!result) return env.print("No tool result in this session yet.");
      await env.page(`${result.title}\n\n${result.text.replace(/\n+$/, "")}`);
    },
    transcript: () => env.transcript(),
    cost: () => env.print(costReport(session, env.context())),
    clear: async () => {
      warnAll(await session.clear());
      env.forgetLast();
      env.print(theme.dim("Started a new conversation; the task list is empty."));
    },
    model: () => modelCommand(args.trim(), env),
    agent: async () => {
      const name = args.trim();
      const current = session.runtime().settings.agent;
      if (!name) {
        const rows = VARIANT_NAMES.map((v) => `  ${v === current ? "›" : " "} ${v.padEnd(8)} ${VARIANTS[v].summary}`);
        return env.print([`agent: ${current}`, ...rows, theme.dim("/agent <name> switches (tab after /agent picks)")].join("\n"));
      }
      await session.switchAgent(name);
      const { settings } = session.runtime();
      env.print(`agent: ${settings.agent} (thinking ${settings.thinking}, up to ${settings.maxSteps} steps) from the next prompt on.`);
    },
    think: async () => {
      const level = args.trim();
      if (!level) return env.print(`thinking: ${session.runtime().settings.thinking} (${THINKING_LEVELS.join(", ")}; tab after /think picks)`);
      await session.setThinking(level);
      env.print(`thinking: ${level} from the next prompt on.`);
    },
    mode: () => {
      const wanted = args.trim().toLowerCase();
      if (!wanted) return env.print(`mode: ${session.mode().label} (${APPROVAL_MODES.join(", ")}, plan; /mode <mode> or shift-tab switches)`);
      if (wanted === "plan") return env.print(session.mode().planning ? "mode: plan already" : session.enterPlan());
      if (!isApprovalMode(wanted)) return env.print(theme.warn(`usage: /mode ${APPROVAL_MODES.join("|")}|plan, not "${wanted}"`));
      env.print(session.setMode(wanted));
    },
    reasoning: () => {
      const text = env.lastReasoning();
      env.print(text ? theme.dim(text.trim()) : "No reasoning in this session yet.");
    },
    undo: async () => {
      const mode = args.trim().toLowerCase();
      if (mode !== "" && mode !== "files" && mode !== "conversation") return env.print(theme.warn("usage: /undo [files|conversation]"));
      const outcome = await session.undo(mode === "" ? "all" : mode, async (question) => (await env.ask(question)) === "y");
      env.print(outcome.lines.join("\n"));
      if (outcome.prompt !== undefined) {
        env.setInput(outcome.prompt);
        env.print(theme.dim("The prompt is back in the input: edit it and press enter, or clear it with ctrl-c."));
      }
    },
    rewind: async () => {
      const [wanted = "", given, ...rest] = args.trim().split(/\s+/);
      const ways = ["all", "conversation", "files", "fork"];
      if ((wanted !== "" && !/^\d+$/.test(wanted)) || (given !== undefined && !ways.includes(given)) || rest.length > 0) {
        return env.print(theme.warn("usage: /rewind [n] [all|conversation|files|fork]   (n: the prompt's number; alone: pick one)"));
      }
      const choices = session.rewindChoices();
      if (choices.length === 0) return env.print("Nothing to rewind: this session has no prompt yet.");
      let to = wanted === "" ? undefined : Number(wanted);
      if (to === undefined) {
        if (!env.pick) return env.print([...choices.map((c) => c.label), theme.dim("/rewind <n> goes back to just before prompt n (/rewind <n> conversation, files or fork: one half, or in a copy).")].join("\n"));
        const id = await env.pick({ title: "Rewind to just before which prompt? (newest first)", options: choices.map((c) => ({ id: String(c.number), label: c.label })), hint: "enter: choose · esc: cancel" });
        if (id === undefined) return;
        to = Number(id);
      }
      const how = given ?? (env.pick
        ? await env.pick({
            title: `Back to just before prompt ${to}:`,
            options: [
              { id: "all", label: "the conversation and the files" },
              { id: "conversation", label: "the conversation only (the files stay as they are)" },
              { id: "files", label: "the files only (the conversation stays)" },
              { id: "fork", label: "in a copy: fork, and take the copy back (this session stays as it is)" },
            ],
            hint: "enter: choose · esc: cancel",
          })
        : "all");
      if (how === undefined) return;
      const mode = how === "fork" ? "all" : (how as "all" | "conversation" | "files");
      const outcome = await session.rewind(to, mode, async (question) => (await env.ask(question)) === "y", how === "fork");
      if (how === "fork" || mode !== "files") env.forgetLast();
      env.print(outcome.lines.join("\n"));
      if (outcome.prompt !== undefined) {
        env.setInput(outcome.prompt);
        env.print(theme.dim("The prompt is back in the input: edit it and press enter, or clear it with ctrl-c."));
      }
    },
    fork: async () => {
      env.forgetLast();
      env.print(await session.fork());
    },
    diff: async () => {
      const scope = args.trim().toLowerCase();
      if (scope !== "" && scope !== "session") return env.print(theme.warn("usage: /diff [session]"));
      const { title, files } = session.diff(scope === "session" ? "session" : "turn");
      await page([title, ...changeLines(files, session.shown, theme)], env);
    },
    jobs: () => env.print(session.jobsListing().join("\n")),
    kill: async () => env.print(await session.killJob(args)),
    mcp: () => mcpCommand(args, env),
    hooks: () => env.print([theme.bold("Hooks"), ...describeHooks(session.hooks(), hooksOff(session)).map((line) => "  " + line)].join("\n")),
    exit: () => {},
  };
  // A command that takes no arguments refuses words after it rather than ignoring them.
  const extra = extraWordsHint(name, args);
  if (extra) return void env.print(theme.warn(extra));
  await handlers[name]();
  return name === "exit" ? "exit" : undefined;
}

/**
 * Prints `lines` a screenful at a time when they do not fit: space or enter shows the next page,
 * any other key stops. Without a terminal everything is printed at once.
 */
async function page(lines: readonly string[], env: CommandEnv): Promise<void> {
  const rows = env.rows();
  const height = rows === undefined ? lines.length : Math.max(rows - 3, 5);
  for (let at = 0; at < lines.length; at += height) {
    env.print(lines.slice(at, at + height).join("\n"));
    const shown = at + height;
    if (shown >= lines.length) return;
    const key = await env.ask(`-- ${shown} of ${lines.length} lines · space or enter: more · q: stop -- `);
    if (key !== " " && key !== "enter") return env.print(env.theme.dim(`(${lines.length - shown} more lines not shown)`));
  }
}

/** Why no hook runs, when they are turned off. */
function hooksOff(session: ReplSession): string | undefined {
  if (!session.hookPlan) return undefined;
  return session.runtime().config.disableAllHooks === true ? 'config "disableAllHooks"' : session.hooksDisabled ? "--no-hooks" : undefined;
}

/**
 * What the session has spent (tokens billed and their cost, resumes included), and apart from it the
 * size of the next request, which is the status line's `ctx`: the two count different things.
 */
function costReport(session: ReplSession, context: RequestEstimate): string {
  const usage = session.conversation().usage;
  const total = usage.inputTokens + usage.outputTokens;
  const cached = usage.cachedInputTokens ? ` (${usage.cachedInputTokens.toLocaleString("en-US")} cached)` : "";
  const tokens = `spent: ${usage.inputTokens.toLocaleString("en-US")} tokens in${cached} · ${usage.outputTokens.toLocaleString("en-US")} out · ${total.toLocaleString("en-US")} total, this session`;
  const spent = session.spent();
  const cost = spent === "unpriced" ? `cost: unknown — ${session.unpricedNames()} ${session.unpricedNames().includes(" and ") ? "have" : "has"} no price in shiro's table` : `cost so far: ${formatUsd(spent)}`;
  const next = `next request: ~${formatTokenCount(context.requestTokens)} of the ${formatTokenCount(context.windowTokens)}-token window (ctx on the status line; an estimate, not spent yet)`;
  const sub = session.subagents();
  if (sub.count === 0) return `${tokens}\n${cost}\n${next}`;
  const subTokens = `${sub.inputTokens.toLocaleString("en-US")} in · ${sub.outputTokens.toLocaleString("en-US")} out`;
  const subCost = sub.costUsd === undefined ? "cost unknown" : formatUsd(sub.costUsd);
  return `${tokens}\n${cost}\nof which subagents (${sub.count} ${sub.count === 1 ? "run" : "runs"}): ${subTokens} · ${subCost}\n${next}`;
}
