import type { LanguageModel, ModelMessage } from "ai";
import type { Settings } from "../../config/resolve.ts";
import type { AgentEvent, EventSink, TurnStatus, Usage } from "../../events.ts";
import type { CallOptions } from "../../provider/call-options.ts";
import type { ContextWindow } from "../../provider/context-window.ts";
import type { SubagentTranscript } from "../../sessions/schema.ts";
import type { AnyTool } from "../../tools/define.ts";
import type { ToolCallOptions } from "../tool-call.ts";
import { runTurn, type TurnResult } from "../turn.ts";
import { DEFAULT_MAX_STOP_BLOCKS } from "../../hooks/events.ts";
import { stopHookMessage, stopRequested } from "../prompt-hooks.ts";
import type { SubagentKind } from "./kinds.ts";
import { finalText, reportFor } from "./report.ts";

/** One sub-task as the model gave it. */
export type SubagentJob = { kind: SubagentKind; description: string; prompt: string };

/**
 * Where and with what a subagent runs: the model for its kind, its tools and prompt, and the parent
 * turn's io (its signal, so esc stops every subagent; its sink, for subagent-start, -step and -end
 * and the calls refused; its approver, with every call marked as the subagent's; its journal, so a
 * worker's edits are undone with the turn).
 */
export type SubagentEnv = Pick<ToolCallOptions, "root" | "cwd" | "signal" | "emit" | "approve" | "redact" | "journal" | "hooks"> & {
  model: LanguageModel;
  modelId: string;
  callOptions: CallOptions;
  window: ContextWindow;
  settings: TurnSettings;
  tools: readonly AnyTool[];
  instructions: string;
  /** A call of a tool that runs commands ended, with its command line (the turn's count of commands run). */
  onCommand?: (command: string | undefined) => void;
};

type TurnSettings = Pick<Settings, "pruneAtTokens" | "maxRetries" | "retryBaseMs" | "baseURL" | "api" | "apiKeySource" | "provider" | "client"> & { maxSteps: number };

export type SubagentOutcome = {
  report: string;
  status: TurnStatus;
  steps: number;
  usage: Usage;
  transcript: Omit<SubagentTranscript, "costUsd">;
};

/**
 * Runs one subagent to its end: a fresh history holding only its prompt, a turn of at most its
 * step cap on its own tools, pruned like any turn. The parent sees three kinds of event and, at
 * the end, the report (its final answer, capped, or what stopped it). Never throws.
 */
function addUsage(a: Usage, b: Usage): Usage {
  return { ...b, inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}

export async function runSubagent(job: SubagentJob, where: { callId: string; index: number }, env: SubagentEnv): Promise<SubagentOutcome> {
  const { callId, index } = where;
  let messages: ModelMessage[] = [{ role: "user", content: job.prompt }];
  const history = {
    get history() {
      return messages;
    },
    append: (added: readonly ModelMessage[]) => void (messages = [...messages, ...added]),
    replace: (next: readonly ModelMessage[]) => void (messages = [...next]),
  };
  const origin = { kind: job.kind, description: job.description, ask: job.kind === "worker" };
  const commandTools = new Set(env.tools.filter((t) => t.subject.kind === "command").map((t) => t.name));
  let done = 0;
  /** Calls that failed (a tool error) or were refused, for the line the subagent leaves. */
  const troubles = { failed: 0, refused: 0 };
  const ids = { id: callId, index };
  const commandLines = new Map<string, string | undefined>();
  const sink = (event: AgentEvent) => {
    if (event.type === "tool-call" && commandTools.has(event.tool)) commandLines.set(event.id, event.subject);
    if (event.type === "tool-call") env.emit({ type: "subagent-step", ...ids, step: done + 1, tool: event.tool, ...(event.subject ? { subject: event.subject } : {}) });
    else if (event.type === "step") {
      done = event.step;
      env.emit({ type: "subagent-step", ...ids, step: done + 1 });
    } else if (event.type === "tool-result" && commandTools.has(event.tool)) env.onCommand?.(commandLines.get(event.id));
    else if (event.type === "tool-error") {
      troubles.failed++;
      env.emit({ type: "subagent-step", ...ids, step: done + 1, tool: event.tool, failed: event.error });
    }
    // A refusal is the user's business too (the headless record lists it; the loop shows it), under the id its approval had.
    else if (event.type === "tool-denied") {
      troubles.refused++;
      env.emit({ ...event, id: `${callId}/${index}/${event.id}` });
    }
    // Worth knowing whoever met it (a retry, a tool's word to the user), said with whose it is.
    else if (event.type === "notice") env.emit({ type: "notice", message: `${job.kind} subagent "${job.description}": ${event.message}` });
    else if (event.type === "hook") env.emit(event);
  };
  env.emit({ type: "subagent-start", ...ids, kind: job.kind, description: job.description, model: env.modelId });
  let result: TurnResult | undefined;
  try {
    // A SubagentStop hook that blocks sends the subagent its reason and it goes on (bounded as Stop is).
    for (let stopBlocks = 0; ; stopBlocks++) {
    const part = await runTurn({
      model: env.model,
      callOptions: env.callOptions,
      session: history,
      tools: env.tools,
      instructions: () => env.instructions,
      settings: env.settings,
      window: env.window,
      root: env.root,
      cwd: env.cwd,
      signal: env.signal,
      emit: sink,
      // The subagent's call ids are its own; prefixed, they cannot be taken for one of the parent's.
      approve: (call) => env.approve({ ...call, id: `${callId}/${index}/${call.id}`, subagent: origin }),
      ...(env.redact ? { redact: env.redact } : {}),
      ...(env.journal ? { journal: env.journal } : {}),
      ...(env.hooks ? { hooks: env.hooks } : {}),
    });
    result = result ? { ...part, steps: result.steps + part.steps, usage: addUsage(result.usage, part.usage) } : part;
    if (!env.hooks || part.status !== "success" || env.signal.aborted || stopBlocks >= DEFAULT_MAX_STOP_BLOCKS) break;
    const goOn = await stopRequested(env.hooks, "SubagentStop", { active: stopBlocks > 0, messages }, sink, env.signal);
    if (goOn === undefined) break;
    history.append([stopHookMessage(goOn)]);
    }
  } catch (error) {
    // runTurn does not throw for provider or tool failures; anything else still ends as a report.
    result = { status: "error" as const, steps: done, usage: { inputTokens: 0, outputTokens: 0 }, error: error instanceof Error ? error.message : String(error), messages: [] };
  }
  const text = finalText(messages.slice(1));
  const failure = result.status === "error" ? (result.error ?? "unknown error") : undefined;
  env.emit({
    type: "subagent-end",
    ...ids,
    kind: job.kind,
    description: job.description,
    status: result.status,
    steps: result.steps,
    usage: result.usage,
    ...(failure ? { error: failure } : {}),
    ...(troubles.failed > 0 ? { failedCalls: troubles.failed } : {}),
    ...(troubles.refused > 0 ? { refusedCalls: troubles.refused } : {}),
  });
  return {
    report: reportFor({ status: result.status, steps: result.steps, text, maxSteps: env.settings.maxSteps, ...(failure ? { error: failure } : {}) }),
    status: result.status,
    steps: result.steps,
    usage: result.usage,
    transcript: {
      callId,
      index,
      kind: job.kind,
      description: job.description,
      model: env.modelId,
      status: result.status,
      steps: result.steps,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      messages,
    },
  };
}
