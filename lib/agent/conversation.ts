import type { LiveSession } from "../sessions/live-session.ts";
import { interruptionMessage } from "../text/interruption.ts";
import type { ModelMessage } from "ai";
import type { Hooks } from "../hooks/hooks.ts";
import { promptSubmitted, stopHookMessage, stopRequested, withHookContext } from "./prompt-hooks.ts";
import type { TurnChanges, UndoJournal } from "../sessions/undo/journal.ts";
import { beginTurnRecording, undoTrouble } from "./turn-recording.ts";
import type { AgentEvent, EventSink, Usage } from "../events.ts";
import type { AnyTool } from "../tools/define.ts";
import { memoByIdentity } from "../prune/memo.ts";
import { closeDanglingToolCalls } from "../prune/repair.ts";
import { toolsFor } from "../tools/index.ts";
import { VARIANTS } from "../config/variants.ts";
import type { MemoryStore } from "../memory/store.ts";
import { createNotebook, type Notebook } from "../notebook/notebook.ts";
import { renderTodos } from "../notebook/render.ts";
import type { Todo } from "../notebook/schema.ts";
import { buildInstructions } from "./instructions.ts";
import { withPromptCacheKey, withoutPromptCacheKey } from "../provider/call-options.ts";
import { taskListNote } from "./task-list-note.ts";
import { keyRedactor, redactDeep, redactEvent } from "./redact-key.ts";
import type { Runtime } from "./runtime.ts";
import type { Approver } from "../approval.ts";
import { runTurn, type TurnResult } from "./turn.ts";
import { cachedEstimates, type RequestEstimate } from "./request-estimate.ts";
import { markTurnFailure } from "./turn-failure.ts";
import { sessionImages } from "./session-images.ts";
import { promptContent, promptText } from "../image/part.ts";
import { createTaskTool, type TurnIo } from "./subagent/task-tool.ts";
import { goalNote, type GoalState } from "./goal.ts";
import { createGoalDoneTool } from "../tools/goal-done.ts";

/** What a conversation needs of its session: the history it owns and the totals it keeps. */
export type ConversationSession = Pick<LiveSession, "id" | "history" | "append" | "replace" | "inProgress" | "totals" | "recordSubagent" | "goal" | "setGoal">;

export type ConversationOptions = {
  runtime: Runtime;
  /** Owns the history and the usage totals; every step goes through it (autosave, cost). */
  session: ConversationSession;
  todos?: readonly Todo[];
  /** The project's memory store, whose tools the session gets (none with --no-memory). */
  memory?: MemoryStore;
  /** The project-memory block, rendered once at the start of the session: a `remember` later in it does not change it, so the system prompt stays the same and cached. */
  memoryBlock?: string;
  /** The session's undo journal: each prompt's turn is recorded in it (files, task list, where the history stood). */
  undo?: UndoJournal;
  /**
   * The task tool's subagents. `workers`: offer the worker kind (only where its approvals can be
   * answered; never to a read-only variant). `runtimeFor`: another model on the same server, for
   * config `subagentModel`. Default: explore and review only, on the session's model.
   */
  subagents?: { workers: boolean; runtimeFor?: (runtime: Runtime, modelId: string) => Promise<Runtime> };
  /**
   * True for a command line that only reads (lib/permissions/read-only.ts, passed in by the
   * caller): not counted among the commands the turn ran that /undo cannot revert.
   */
  onlyReads?: (command: string, cwd: string) => boolean;
  /**
   * The session's hooks (docs/hooks.md): the tool events, UserPromptSubmit and Stop run here.
   * `startContext`: what SessionStart hooks printed, sent with the first prompt.
   */
  hooks?: { hooks: Hooks; startContext?: string[]; maxStopBlocks: number };
  /** A command the agent ran (bash) ended with an exit code: the project's command notes record it (lib/app/command-notes.ts); a problem in words comes back, said as a notice. Awaited before the turn returns. */
  onCommandEnded?: (command: string, exitCode: number) => Promise<string | undefined>;
};

/**
 * A turn's result, and what it changed: files (undoable) and commands run (not undoable), for the
 * line at the turn's end. `changes` is absent without a journal, or when recording it failed.
 */
export type PromptResult = TurnResult & {
  changes?: TurnChanges;
  /** A UserPromptSubmit hook kept the prompt from the model, for this reason (nothing ran). */
  blocked?: string;
};

/**
 * What the user typed, when the prompt sent was written on their behalf: `prompt` the command
 * line (`/init`, `/review a.ts`) a command expanded, `shell` the `!cmd` lines whose output went
 * with it. Kept with the prompt in the session (the "shiro" namespace) for the replay of a
 * resumed session; /undo gives back `prompt`.
 */
export type TypedPrompt = { prompt?: string; shell?: string[] };

export type Conversation = {
  /** The session's history (read-only: the session changes it). */
  readonly history: readonly import("ai").ModelMessage[];
  readonly notebook: Notebook;
  readonly tools: readonly AnyTool[];
  /** Tokens used by this session so far, earlier runs included, as the provider reported them. */
  readonly usage: Usage;
  /** The settings and model later turns run with (`/model` swaps them). */
  readonly runtime: Runtime;
  useRuntime(runtime: Runtime): void;
  instructions(): string;
  /** The session's goal (docs/goals.md); undefined without one. */
  goal(): GoalState | undefined;
  /** Sets, updates or (undefined) ends the goal; saved with the session. */
  setGoal(goal: GoalState | undefined): void;
  /**
   * The size of the request the next prompt would send, from the history as it is now (the turn's
   * own preparation: next-request.ts), for the status line's context meter. Cheap to ask again
   * while nothing changed.
   */
  nextRequestEstimate(): RequestEstimate;
  /**
   * Runs one user prompt to the end of its turn. Never throws for provider or tool failures.
   * `typed` is what the user typed when shiro wrote the prompt for them (see TypedPrompt).
   */
  /**
   * `stoppedByUser`: whether an abort of `signal` came from the user (the default), whom the
   * history's interruption note names; false for one shiro made itself (stdout went away).
   */
  /** `goOn`: how the person continues a turn cut short (TurnOptions.goOn); the interactive loop's words by default. */
  runPrompt(prompt: string, io: { emit: EventSink; approve: Approver; signal: AbortSignal; typed?: TypedPrompt; stoppedByUser?: () => boolean; goOn?: string }): Promise<PromptResult>;
};

/**
 * One conversation: its task list and the tools bound to it, over a session that owns the
 * history. Shared by the headless printer and the interactive loop, so both behave the same.
 */
export function createConversation(opts: ConversationOptions): Conversation {
  const { session } = opts;
  let runtime = opts.runtime;
  const notebook = createNotebook(opts.todos);
  const images = sessionImages(() => runtime);
  /** The turn running now, for the task tool's subagents. */
  let turnIo: TurnIo | undefined;
  const toolsWith = (rt: Runtime) => {
    const readOnly = VARIANTS[rt.settings.agent].readOnly;
    const own = toolsFor({ notebook, memory: opts.memory, commands: rt.commands, readOnly, webFetch: rt.settings.webFetch, skills: rt.skills?.skills });
    const task = createTaskTool({
      workers: (opts.subagents?.workers ?? false) && !readOnly,
      sessionTools: () => own,
      runtime: () => runtime,
      ...(opts.subagents?.runtimeFor ? { runtimeFor: opts.subagents.runtimeFor } : {}),
      turn: () => turnIo,
      overSpend: () => {
        const { costUsd } = session.totals();
        const max = runtime.settings.maxSpendUsd;
        return max !== undefined && costUsd !== undefined && costUsd >= max;
      },
      record: (outcome) => session.recordSubagent({ ...outcome.transcript, messages: redactDeep(outcome.transcript.messages, keyRedactor(runtime.settings.apiKey)) }),
    });
    return [...own, task];
  };
  let builtIn: AnyTool[] = toolsWith(runtime);
  /** The system prompt last built, and what it was built from. */
  let built: { runtime: Runtime; tools: AnyTool[]; text: string } | undefined;
  // MCP servers connect in the background and may change their tools, so the set is read again
  // for every request; it is the same array (and the same request prefix) while nothing changed.
  // Read-only agents get none: shiro cannot tell which MCP tools only read.
  let combined: { builtIn: AnyTool[]; mcp: readonly AnyTool[]; all: AnyTool[] } | undefined;
  // goal_done: offered only while the goal is active and has no check (the check decides otherwise).
  const goalDone = createGoalDoneTool((said) => {
    const goal = session.goal();
    if (goal) session.setGoal({ ...goal, status: "met", done: said });
  });
  let withGoal: { builtIn: AnyTool[]; all: AnyTool[] } | undefined;
  const sessionTools = (): AnyTool[] => {
    const goal = session.goal();
    if (!goal || goal.status !== "active" || goal.until) return builtIn;
    if (withGoal?.builtIn !== builtIn) withGoal = { builtIn, all: [...builtIn, goalDone] };
    return withGoal.all;
  };
  const currentTools = (): AnyTool[] => {
    const own = sessionTools();
    const mcp = runtime.mcp && !VARIANTS[runtime.settings.agent].readOnly ? runtime.mcp.tools() : [];
    if (mcp.length === 0) return own;
    if (combined?.builtIn !== own || combined.mcp !== mcp) combined = { builtIn: own, mcp, all: [...own, ...mcp] };
    return combined.all;
  };
  /** The note sent after the history: the goal and the task list (task-list-note.ts). */
  const wireTail = () => taskListNote(renderTodos(notebook.todos()), goalNote(session.goal()));

  const estimates = cachedEstimates();

  const conversation: Conversation = {
    get history() {
      return session.history;
    },
    notebook,
    get tools() {
      return currentTools();
    },
    get usage() {
      const { inputTokens, outputTokens, cachedInputTokens } = session.totals();
      return { inputTokens, outputTokens, ...(cachedInputTokens ? { cachedInputTokens } : {}) };
    },
    get runtime() {
      return runtime;
    },
    useRuntime(next) {
      runtime = next;
      builtIn = toolsWith(next);
    },
    goal: () => session.goal(),
    setGoal: (goal) => session.setGoal(goal),
    instructions: () => {
      // The same for every step of a session (the provider caches it): built again only when the
      // runtime or the tool set changed (/model, /agent).
      if (built?.runtime !== runtime || built.tools !== builtIn) {
        const text = buildInstructions({
          env: runtime.workspace,
          projectDocs: runtime.projectDocs,
          memory: opts.memoryBlock,
          tools: builtIn.map((t) => t.name),
          agent: runtime.settings.agent,
          model: runtime.settings.model,
          skills: runtime.skills?.skills,
        });
        built = { runtime, tools: builtIn, text };
      }
      return built.text;
    },
    nextRequestEstimate() {
      return estimates({
        history: session.history,
        instructions: conversation.instructions(),
        tools: currentTools(),
        window: runtime.window.info,
        pruneAtTokens: runtime.settings.pruneAtTokens,
        tail: wireTail(),
      });
    },
    async runPrompt(prompt, io) {
      // The sandbox and the login environment get ready while the model reads the prompt: started
      // on the event loop's next turn, which leaves the first request to be built and sent first
      // (it is, when nothing on its way waits for I/O). Not for a turn already given up.
      if (currentTools().some((t) => t.subject.kind === "command")) setImmediate(() => io.signal.aborted || runtime.commands.warm?.());
      // The variant and thinking level this turn ran with, kept with its prompt in the session
      // for the user's information (no provider reads the "shiro" namespace).
      const ranWith = { agent: runtime.settings.agent, thinking: runtime.settings.thinking };
      const redact = keyRedactor(runtime.settings.apiKey);
      // Everything the session keeps goes through the redactor first: the model's text and tool
      // arguments can carry the key too, and the history is saved and sent again.
      const history = {
        get history() {
          return session.history;
        },
        append: (messages: readonly ModelMessage[], usage?: Usage) => session.append(redactDeep(messages, redact), usage),
        replace: (messages: readonly ModelMessage[]) => session.replace(redactDeep(messages, redact)),
        inProgress: (messages: readonly ModelMessage[]) => session.inProgress(redactDeep(messages, redact)),
      };
      // Provider error text can echo the key back; it must not reach the screen or a log.
      const emit = (event: AgentEvent) => io.emit(redactEvent(event, redact));
      const noImages = images.refusalBefore(promptContent(prompt), emit);
      if (noImages) return noImages;
      // UserPromptSubmit may keep the prompt from the model, or add context to it (with SessionStart's, once).
      const hooks = opts.hooks;
      let context: string[] = [];
      if (hooks) {
        const verdict = await promptSubmitted(hooks.hooks, prompt, emit, io.signal);
        if (verdict.blocked !== undefined) {
          emit({ type: "notice", message: `the prompt was not sent: ${verdict.blocked}` });
          return { status: "success", steps: 0, usage: { inputTokens: 0, outputTokens: 0 }, messages: [], blocked: verdict.blocked };
        }
        context = [...(hooks.startContext?.splice(0) ?? []), ...verdict.context];
      }
      const userTyped = io.typed?.prompt ?? (context.length > 0 ? prompt : undefined);
      prompt = withHookContext(prompt, context);
      const typed = {
        ...(userTyped !== undefined ? { typed: userTyped } : {}),
        ...(io.typed?.shell?.length ? { shell: io.typed.shell } : {}),
      };
      // A session shiro was killed in may end with a call that has no result (the step under way is
      // kept on record): it is closed as interrupted before the prompt goes after it.
      const closed = closeDanglingToolCalls(session.history);
      if (closed !== session.history) history.replace(closed);
      // The same prompt sent again after a turn that got no answer at all (the provider failed; ↑ and
      // Enter) is that prompt's second try, not a second prompt: the model reads it once, and /undo
      // takes it back with this turn.
      const last = session.history.at(-1);
      const resent = last?.role === "user" && promptText(last.content) === prompt;
      const recorder = beginTurnRecording(opts.undo, { prompt: userTyped ?? prompt, historyLength: session.history.length - (resent ? 1 : 0), todos: notebook.todos(), goal: session.goal() }, emit);
      if (!resent) history.append([{ role: "user", content: promptContent(prompt), providerOptions: { shiro: { ...ranWith, ...typed } } }]);
      let commands = 0;
      let result: TurnResult | undefined;
      const recorded: Promise<void>[] = [];
      /** A command ran: counted unless it only reads (`ls`, `cat`), which leaves nothing to revert. */
      const ran = (command: string | undefined) => {
        try {
          if (command !== undefined && opts.onlyReads?.(command, runtime.workspace.cwd)) return;
        } catch {
          // a line the check cannot judge is counted
        }
        commands++;
      };
      turnIo = { emit, approve: io.approve, redact, onCommand: ran, ...(hooks ? { hooks: hooks.hooks } : {}) };
      try {
        // A Stop hook that blocks the turn's end sends the model its reason and the turn goes on,
        // at most maxStopBlocks times in a row; never after the user interrupted it.
        for (let stopBlocks = 0; ; ) {
        const part = await runTurn({
          model: runtime.model,
          callOptions: withPromptCacheKey(runtime.callOptions, runtime.settings, session.id),
          // What the turn learned (a refused reasoning control) is kept; the session's cache key is not.
          onCallOptions: (options) => (runtime = { ...runtime, callOptions: withoutPromptCacheKey(options) }),
          session: history,
          tools: currentTools,
          instructions: conversation.instructions,
          wireTail,
          settings: runtime.settings,
          window: runtime.window,
          images,
          root: runtime.workspace.root,
          cwd: runtime.workspace.cwd,
          signal: io.signal,
          emit: (event) => {
            if (event.type === "tool-result" && commandTools(currentTools()).has(event.tool)) ran(event.subject);
            if (event.type === "tool-result" && event.tool === "bash" && typeof event.exitCode === "number" && event.subject) recorded.push((opts.onCommandEnded?.(event.subject, event.exitCode) ?? Promise.resolve(undefined)).then((problem) => void (problem && emit({ type: "notice", message: problem }))));
            emit(event);
          },
          approve: io.approve,
          redact,
          ...(recorder ? { journal: recorder } : {}),
          ...(io.goOn ? { goOn: io.goOn } : {}),
          ...(hooks ? { hooks: hooks.hooks } : {}),
        });
        result = stopBlocks === 0 ? part : joinTurns(result!, part);
        if (!hooks || part.status !== "success" || io.signal.aborted) break;
        const goOn = await stopRequested(hooks.hooks, "Stop", { active: stopBlocks > 0, messages: result.messages }, emit, io.signal);
        if (goOn === undefined) break;
        if (++stopBlocks > hooks.maxStopBlocks) {
          emit({ type: "notice", message: `Stop hooks kept the turn going ${hooks.maxStopBlocks} times in a row; it ends here (maxStopHookBlocks)` });
          break;
        }
        const instruction = stopHookMessage(goOn);
        history.append([instruction]);
        result = { ...result, messages: [...result.messages, instruction] };
        }
      } catch (error) {
        // Whatever ended the turn, what its tools did to the files is recorded.
        await recorder?.end({ commands }).catch(() => {});
        throw error;
      } finally {
        turnIo = undefined;
        await Promise.all(recorded);
      }
      // A turn that failed says so on its prompt (for the replay of a resumed session); one that
      // ended otherwise (the same prompt's second try answered) takes the mark off.
      const marked = markTurnFailure(session.history, redact(prompt), result.status === "error" ? redact(result.error ?? "unknown error") : undefined);
      if (marked !== session.history) history.replace(marked);
      // The model is told, in this session and any that resumes it, that the turn was cut short.
      if (result.status === "interrupted" && (io.stoppedByUser?.() ?? true)) history.append([interruptionMessage()]);
      const changes = recorder ? await recorder.end({ commands }).catch((error: unknown) => void emit({ type: "notice", message: undoTrouble(error) })) : undefined;
      const ended = changes ? { ...result, changes } : result;
      return ended.error === undefined ? ended : { ...ended, error: redact(ended.error) };
    },
  };
  return conversation;
}

/** A turn and the part a Stop hook made it go on with, as one result. */
function joinTurns(first: TurnResult, next: TurnResult): TurnResult {
  return {
    ...next,
    steps: first.steps + next.steps,
    usage: { ...next.usage, inputTokens: first.usage.inputTokens + next.usage.inputTokens, outputTokens: first.usage.outputTokens + next.usage.outputTokens },
    messages: [...first.messages, ...next.messages],
  };
}

/** The names of the tools whose subject is a command line, worked out once per tool set. */
const commandTools = memoByIdentity((tools: readonly AnyTool[]) => new Set(tools.filter((t) => t.subject.kind === "command").map((t) => t.name)));
