/**
 * Everything a turn reports, as one discriminated union. The headless printer and the
 * interactive loop both consume these; nothing in lib/ writes to the terminal itself.
 */
/** Token counts as the provider reported them. `cachedInputTokens` (part of inputTokens) is billed at the cache rate. */
export type Usage = {
  inputTokens: number;
  outputTokens: number;
  /** Part of inputTokens served from the provider's cache, billed at the cache rate. */
  cachedInputTokens?: number;
  /** Part of outputTokens spent reasoning, when the provider reports it. */
  reasoningTokens?: number;
  /** What the server itself said the call cost in USD (OpenRouter does); counted instead of shiro's price table. */
  costUsd?: number;
};

export type AgentEvent =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  /** The model has started a tool call; its input may still be streaming. */
  | { type: "tool-start"; id: string; tool: string }
  /** The call's input is complete and about to run. `subject` is the path, command or pattern. */
  | { type: "tool-call"; id: string; tool: string; input: unknown; subject?: string }
  /** Live output of a running tool (bash). */
  | { type: "tool-output"; id: string; tool: string; stream: "stdout" | "stderr"; chunk: string }
  /** `summary` is one line for the screen; `output` is what the model received. `subject`: the call's, as on its tool-call. `exitCode`: bash's (null when it did not exit on its own). */
  | { type: "tool-result"; id: string; tool: string; subject?: string; summary: string; output: string; exitCode?: number | null }
  | { type: "tool-error"; id: string; tool: string; subject?: string; error: string }
  /** `reason` is what the model reads; `shown` the few words the user's line gives instead (none: the reason, clipped). */
  | { type: "tool-denied"; id: string; tool: string; subject?: string; reason: string; shown?: string }
  /** Message counts of the history and the wire; when they are equal, `folded`: the messages whose older tool output was folded (0: only reasoning was left out), `underTokens`: the threshold. */
  | { type: "compacted"; before: number; after: number; folded?: number; underTokens?: number }
  /** `retryInMs`: the turn now waits this long before sending the failed request again. */
  | { type: "notice"; message: string; retryInMs?: number }
  | { type: "error"; message: string }
  /**
   * A hook ran (docs/hooks.md): the event, the tool for tool events, the command and where it was
   * configured, how it ended, and what it decided (block, allow, deny, ask, stop, error) with why.
   */
  | { type: "hook"; event: string; tool?: string; command: string; origin: string; exitCode: number | null; decision?: string; reason?: string; durationMs: number }
  /** A goal's check ran after goal turn `turn` (docs/goals.md): `exitCode` null when it did not finish; `tail` the end of its output. */
  | { type: "goal-check"; command: string; exitCode: number | null; passed: boolean; turn: number; maxTurns: number; tail: string }
  /** A request is over. `wireTokens`: the estimated size of the conversation in the request it sent, after pruning (the instructions and tools not counted). */
  | { type: "step"; step: number; usage: Usage; wireTokens?: number }
  | { type: "done"; status: TurnStatus; steps: number; usage: Usage }
  /**
   * A subagent of the task call `id` began. `index` tells the subagents of one call apart (its
   * place in the call's `tasks`, 0 for a single task); `description` is the model's few words.
   */
  | { type: "subagent-start"; id: string; index: number; kind: string; description: string; model: string }
  /** The subagent is on step `step`; `tool` and `subject` name the call it just made, if any. */
  /** `failed`: the error of the call `tool` just made (the live line shows it until the next call). */
  | { type: "subagent-step"; id: string; index: number; step: number; tool?: string; subject?: string; failed?: string }
  /** The subagent is over: how it ended, the steps and tokens it took; `error` when it did not finish. */
  /** `failedCalls`/`refusedCalls`: how many of its tool calls ended in an error, or were refused. */
  | {
      type: "subagent-end";
      id: string;
      index: number;
      kind: string;
      description: string;
      status: TurnStatus;
      steps: number;
      usage: Usage;
      error?: string;
      failedCalls?: number;
      refusedCalls?: number;
    };

export type TurnStatus = "success" | "error" | "step-cap" | "interrupted";

export type EventSink = (event: AgentEvent) => void;
