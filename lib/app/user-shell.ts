import type { Conversation } from "../agent/conversation.ts";
import type { Runtime } from "../agent/runtime.ts";
import { guardCommand } from "../permissions/index.ts";
import { runTool } from "../tools/define.ts";
import { BASH_EXITED } from "../tools/bash.ts";
import { checkTail, GOAL_CHECK_TIMEOUT_MS } from "../agent/goal.ts";
import { exitCodeOf, type SessionTranscript } from "./transcript.ts";

/**
 * `!cmd`: the user's own command, run in the workspace through the same guard and sandbox as the
 * model's (no approval: the user typed it). Its output is kept and goes with the next prompt as
 * context, so the model sees what the user saw.
 */
export function createUserShell(deps: { runtime: () => Runtime; conversation: () => Conversation; home: string; transcript?: SessionTranscript }) {
  /** What `!cmd` showed since the last prompt, sent with the next one. */
  const ran: { command: string; output: string }[] = [];
  return {
    /** Runs it; resolves with what to show. Never throws for the command's own failure. */
    async run(command: string, signal: AbortSignal, onOutput: (chunk: string) => void, onNotice: (message: string) => void = () => {}): Promise<{ refused?: string; output?: string; summary?: string; exitCode?: number | null }> {
      const runtime = deps.runtime();
      const refusal = guardCommand(command, { root: runtime.workspace.root, cwd: runtime.workspace.cwd, home: deps.home, allow: runtime.config.guard?.allow });
      if (refusal) return { refused: `shiro's safety guard refused \`${refusal.command}\`: ${refusal.why}.` };
      const bash = deps.conversation().tools.find((t) => t.subject.kind === "command");
      if (!bash) return { refused: "this agent cannot run commands (a read-only variant); /agent default to switch back" };
      let output: string;
      let summary: string;
      let printed = "";
      const heard = (chunk: string) => ((printed += chunk), onOutput(chunk));
      try {
        ({ output, summary } = await runTool(bash, { command }, { root: runtime.workspace.root, cwd: runtime.workspace.cwd, signal, onOutput: (_stream, chunk) => heard(chunk), notice: onNotice }));
      } catch (error) {
        output = error instanceof Error ? error.message : String(error);
        summary = `failed: ${output.split("\n", 1)[0]}`;
      }
      ran.push({ command, output: output.trimEnd() });
      deps.transcript?.shell(command, printed, output); // its whole output, for the transcript view and /last
      return { output, summary, exitCode: exitCodeOf(output) };
    },
    /**
     * A goal's check (docs/goals.md), run the way `!cmd` runs: guard and sandbox apply, nobody is
     * asked, stopped after GOAL_CHECK_TIMEOUT_MS. `exitCode` null: it did not run or finish (a
     * refusal, a timeout, a signal), which counts as failing. `tail`: the end of its output.
     */
    async check(command: string, signal: AbortSignal): Promise<{ exitCode: number | null; tail: string }> {
      const runtime = deps.runtime();
      const refusal = guardCommand(command, { root: runtime.workspace.root, cwd: runtime.workspace.cwd, home: deps.home, allow: runtime.config.guard?.allow });
      if (refusal) return { exitCode: null, tail: `shiro's safety guard refused \`${refusal.command}\`: ${refusal.why}.` };
      const bash = deps.conversation().tools.find((t) => t.subject.kind === "command");
      if (!bash) return { exitCode: null, tail: "this agent cannot run commands (a read-only variant), so the check cannot run" };
      try {
        const { output } = await runTool(bash, { command, timeout: GOAL_CHECK_TIMEOUT_MS }, { root: runtime.workspace.root, cwd: runtime.workspace.cwd, signal, notice: () => {} });
        const [first = "", ...rest] = output.split("\n");
        const exited = first.startsWith(BASH_EXITED) ? Number.parseInt(first.slice(BASH_EXITED.length), 10) : Number.NaN;
        return Number.isInteger(exited) ? { exitCode: exited, tail: checkTail(rest.join("\n")) } : { exitCode: null, tail: checkTail(output) };
      } catch (error) {
        return { exitCode: null, tail: checkTail(error instanceof Error ? error.message : String(error)) };
      }
    },
    /** The prompt with what `!cmd` showed since the last one, as context, and those commands; takes them. */
    withContext(prompt: string): { prompt: string; shell: string[] } {
      if (ran.length === 0) return { prompt, shell: [] };
      const taken = ran.splice(0);
      const context = taken.map((r) => `$ ${r.command}\n${r.output}`).join("\n\n");
      return { prompt: `I ran these commands in the workspace; their output, for context:\n\n${context}\n\n${prompt}`, shell: taken.map((r) => r.command) };
    },
  };
}
