import type { AgentEvent } from "../../lib/events.ts";
import type { TurnResult } from "../../lib/agent/turn.ts";
import { withoutAttachments } from "../../lib/prompt/attach.ts";
import type { PromptQueue } from "../../lib/prompt/queue.ts";
import { describeTurnChanges } from "../../lib/sessions/undo/report.ts";
import type { ApprovalGate } from "./approval-gate.ts";
import type { EventView } from "./event-view.ts";
import { startSpinner, type LoopState, type Turn } from "./loop-state.ts";
import type { ReplSession } from "./session.ts";
import type { Theme } from "./theme.ts";
import { runGoal } from "../../lib/app/goal-run.ts";

export type TurnRunnerDeps = {
  state: LoopState;
  session: () => ReplSession;
  gate: ApprovalGate;
  view: EventView;
  queue: PromptQueue;
  theme: Theme;
  /** The screen redraws (a spinner runs only there). */
  rich: boolean;
  render: () => void;
  print: (text: string) => void;
  /** The turn is over, its answer written: what stays after it (the task list it changed). Once a turn: a second call does nothing. */
  ended?: () => void;
  /** A prompt's turn starts (the idle notification is called off). */
  started?: () => void;
  /** Plan mode's hand-off (plan-handoff.ts): told when a turn starts and how it ended (undefined: it threw). */
  plan?: { turnStarted(): void; turnEnded(result: TurnResult | undefined): void };
};

/**
 * A prompt's turn on screen: the spend limit first, then the turn through the conversation, its
 * events streamed to the event view, approvals through the gate; and the interrupts: esc (or a
 * second ctrl-c) aborts the turn or the running command, a first ctrl-c stops the tool calls running.
 */
export function createTurnRunner(deps: TurnRunnerDeps) {
  const { state, gate, view, theme } = deps;
  /** The session whose user was told that /undo cannot revert what commands did. */
  let toldUndoLimit: string | undefined;

  /** `typed`: the command line the user typed, when a command wrote the prompt (/init, a custom command). */
  async function runTurn(prompt: string, typed?: string): Promise<void> {
    const session = deps.session();
    deps.started?.();
    const active: Turn = { abort: new AbortController(), running: new Map() };
    state.turn = active;
    deps.plan?.turnStarted();
    let finished: TurnResult | undefined;
    startSpinner(state, deps.rich, deps.render, "working");
    deps.render();
    const approve = gate.approver({
      signal: active.abort.signal,
      register: (id, tool) => {
        const stop = new AbortController();
        active.running.set(id, { tool, stop });
        return stop.signal;
      },
    });
    const emit = (event: AgentEvent) => {
      if (event.type === "tool-result" || event.type === "tool-error" || event.type === "tool-denied") active.running.delete(event.id);
      // A subagent's calls report to it, not here: when it starts its next step or ends, so have
      // they (ctrl-c names only the calls still running).
      const stepDone = event.type === "subagent-step" && event.tool === undefined && event.failed === undefined;
      if (event.type === "subagent-end" || stepDone) for (const id of active.running.keys()) if (id.startsWith(`${event.id}/${event.index}/`)) active.running.delete(id);
      session.transcript.event(event); // the whole of it, for the transcript view (lib/app/transcript.ts)
      view.handle(event);
    };
    try {
      session.transcript.prompt(typed ?? withoutAttachments(prompt));
      const sent = session.withShellContext(prompt);
      // What the user typed, for /undo and the replay: the command line, or (when `!cmd` output went
      // first) the prompt without it; undefined for a plain prompt, which is sent as typed.
      const shell = sent.shell.map((c) => `!${c}`);
      const asTyped = typed ?? (shell.length > 0 ? withoutAttachments(prompt) : undefined);
      const shown = { ...(asTyped !== undefined ? { prompt: asTyped } : {}), ...(shell.length > 0 ? { shell } : {}) };
      const io = { emit, approve, signal: active.abort.signal, typed: shown };
      // While a goal is active, the prompt's turn is the goal's: turns go on until it is met (docs/goals.md).
      const result =
        session.conversation().goal()?.status === "active"
          ? (await runGoal({ conversation: session.conversation, check: session.runCheck, checkSpend: session.beforeTurn }, sent.prompt, io)).result
          : await session.conversation().runPrompt(sent.prompt, io);
      finished = result;
      deps.ended?.(); // under the answer, above the notes about the turn
      // What /undo cannot revert is said once per session, not at every turn that ran a command.
      const changes = describeTurnChanges(result.changes, "/undo", { commandsTold: toldUndoLimit === session.id() });
      if ((result.changes?.commands ?? 0) > 0) toldUndoLimit = session.id();
      if (changes) deps.print(theme.dim(changes));
      // The provider gave nothing back: say how to try again (the model reads a resent prompt once).
      if (result.status === "error" && result.messages.length === 0) deps.print(theme.dim("↑ and enter send the prompt again"));
      // Something came before the failure: it is kept, and the model reads it with the next prompt.
      else if (result.status === "error") deps.print(theme.dim("what came before the error is kept in the conversation: a prompt such as “go on” continues from it"));
    } catch (error) {
      // runPrompt does not throw for provider or tool failures; anything else must not end the session.
      deps.print(theme.error(`error: ${error instanceof Error ? error.message : String(error)}`));
    } finally {
      deps.ended?.(); // (a turn that threw)
      // Said after the turn's text and its "interrupted", not above the text still streaming.
      if (active.dropped) deps.print(theme.warn(`dropped ${active.dropped} queued ${active.dropped === 1 ? "prompt" : "prompts"}`));
      clearInterval(state.spinner);
      // ctrl-d's warning spoke of this turn: it goes, and its window closes (any other key resets both).
      if (state.lastCtrlD !== 0) {
        state.hint = undefined;
        state.lastCtrlD = 0;
      }
      state.turn = undefined;
      state.activity = undefined;
      state.statusDue = true;
      deps.plan?.turnEnded(finished);
      deps.render();
    }
  }

  return {
    /** A prompt's turn, unless the spend limit refuses it. */
    async sendPrompt(prompt: string, typed?: string): Promise<undefined> {
      const spend = deps.session().beforeTurn();
      if (spend?.notice) deps.print(theme.warn(spend.notice));
      if (spend?.refuse) return void deps.print(theme.error(spend.refuse));
      await runTurn(prompt, typed);
    },

    /** esc: stops the command that is running, else the turn (dropping the prompts queued after it). */
    interrupt(): void {
      const { command, turn } = state;
      if (command && !command.signal.aborted) {
        command.abort();
        return deps.print(theme.warn("interrupted"));
      }
      if (!turn || turn.abort.signal.aborted) return;
      turn.dropped = (turn.dropped ?? 0) + deps.queue.clear();
      turn.abort.abort();
    },

    /** ctrl-c while tool calls run: stops them and the turn goes on; false when none was running. */
    stopRunningCalls(): boolean {
      const running = state.turn ? [...state.turn.running.values()] : [];
      if (running.length === 0) return false;
      for (const call of running) call.stop.abort();
      deps.print(theme.warn(`  ^C stopping ${stoppedCalls(running.map((call) => call.tool))}; the turn goes on`));
      return true;
    },
  };
}

export type TurnRunner = ReturnType<typeof createTurnRunner>;

/** The calls ctrl-c stops, by tool: `bash`, `2 bash calls`, `3 calls (bash, task)`. */
export function stoppedCalls(tools: readonly string[]): string {
  const names = [...new Set(tools)];
  if (tools.length === 1) return names[0]!;
  return names.length === 1 ? `${tools.length} ${names[0]} calls` : `${tools.length} calls (${names.join(", ")})`;
}
