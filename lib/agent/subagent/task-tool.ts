import type { Hooks } from "../../hooks/hooks.ts";
import * as v from "valibot";
import type { Approver } from "../../approval.ts";
import type { EventSink } from "../../events.ts";
import { ToolError } from "../../errors.ts";
import { defineTool, type AnyTool } from "../../tools/define.ts";
import type { Runtime } from "../runtime.ts";
import { subagentInstructions, toolsForKind, type SubagentKind } from "./kinds.ts";
import { createLimiter } from "./limiter.ts";
import { joinReports, reportFor } from "./report.ts";
import { runSubagent, type SubagentJob, type SubagentOutcome } from "./run.ts";

/** The most sub-tasks one call may give; more is a plan, not a call. */
const MAX_TASKS = 8;

/** What the task tool needs of the parent turn while it runs: where events go and who approves calls. */
export type TurnIo = { emit: EventSink; approve: Approver; redact?: (text: string) => string; onCommand?: (command: string | undefined) => void; hooks?: Hooks };

export type TaskToolDeps = {
  /** Offer `worker`: only where someone can answer its approvals (interactive, or headless with --yolo). */
  workers: boolean;
  /** The session's tools now (bound to its sandbox), from which each kind's are chosen. */
  sessionTools: () => readonly AnyTool[];
  runtime: () => Runtime;
  /** The runtime for another model on the same server (config `subagentModel`, for explore). */
  runtimeFor?: (runtime: Runtime, modelId: string) => Promise<Runtime>;
  /** The turn running now; undefined between turns. */
  turn: () => TurnIo | undefined;
  /** A subagent ended: its transcript and tokens go to the session. */
  record: (outcome: SubagentOutcome) => void;
  /** True once the session has cost its spend ceiling: no further subagent starts. */
  overSpend?: () => boolean;
};

/** Checked, but not spelled out in the schema the model reads (v.check is left out of it): the schema stays short. */
const Text = (max: number) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.check((text) => text !== "", "must not be empty"),
    v.check((text) => text.length <= max, `must be at most ${max} characters`),
  );

function taskSchema(kinds: readonly SubagentKind[]) {
  const Kind = v.optional(v.picklist(kinds, `must be one of ${kinds.join(", ")}`));
  const Job = v.object({ description: Text(80), prompt: Text(20_000), kind: Kind });
  return v.pipe(
    v.object({
      description: v.optional(Text(80)),
      prompt: v.optional(Text(20_000)),
      kind: Kind,
      tasks: v.optional(v.pipe(v.array(Job), v.check((list) => list.length >= 1 && list.length <= MAX_TASKS, `must list 1 to ${MAX_TASKS} tasks`))),
    }),
    v.check((input) => (input.tasks ? input.description === undefined && input.prompt === undefined : input.description !== undefined && input.prompt !== undefined), "give description and prompt for one task, or tasks for several, not both"),
  );
}

/**
 * The `task` tool: hands sub-tasks to subagents with fresh contexts and returns only their
 * reports. Several (`tasks`) run at once, at most `maxParallelSubagents` at a time, all on the
 * parent turn's signal; each one's tokens are booked with the session and its transcript kept
 * with it, never in the parent's history.
 */
export function createTaskTool(deps: TaskToolDeps): AnyTool {
  const kinds: SubagentKind[] = deps.workers ? ["explore", "review", "worker"] : ["explore", "review"];
  const limiter = createLimiter(() => deps.runtime().settings.subagents.maxParallel);
  const models = new Map<string, Promise<Runtime>>();

  /** The runtime a kind runs on: explore on `subagentModel` when one is set, everything else on the session's. */
  const runtimeFor = (kind: SubagentKind): Promise<Runtime> => {
    const runtime = deps.runtime();
    const wanted = runtime.settings.subagents.model;
    if (kind !== "explore" || !wanted || wanted === runtime.settings.model || !deps.runtimeFor) return Promise.resolve(runtime);
    const key = `${runtime.settings.baseURL} ${wanted}`;
    let built = models.get(key);
    if (!built) {
      built = deps.runtimeFor(runtime, wanted);
      models.set(key, built);
      built.catch(() => models.delete(key));
    }
    return built;
  };

  const workerNote = deps.workers ? ", worker (edits, runs commands; needs approval)" : "";
  return defineTool({
    name: "task",
    description:
      `Give a sub-task to a subagent with a fresh context; only its final report returns. ` +
      `kind: explore (default, read-only search, reports path:line), review (read-only)${workerNote}. ` +
      `prompt: all it needs; it sees nothing else. description: 3-6 words. tasks: several at once.`,
    schema: taskSchema(kinds),
    mutates: false,
    subagents: "none",
    startsSubagents: true,
    subject: {
      kind: "text",
      of: (input) => (Array.isArray(input.tasks) ? `${input.tasks.length} tasks: ${input.tasks.map((t) => t.description).join("; ")}` : (input.description ?? "")),
    },
    defaultDecision: "allow",
    async execute(input, ctx) {
      const io = deps.turn();
      if (!io) throw new ToolError("task: no turn is running, so no subagent can start.");
      const jobs: SubagentJob[] = input.tasks
        ? input.tasks.map((t) => ({ kind: t.kind ?? "explore", description: t.description, prompt: t.prompt }))
        : [{ kind: input.kind ?? "explore", description: input.description!, prompt: input.prompt! }];
      const callId = ctx.callId ?? "task";
      const runOne = async (job: SubagentJob, index: number) => {
        const release = await limiter.acquire(ctx.signal);
        if (!release) return { job, report: reportFor({ status: "not-started", steps: 0, text: "", maxSteps: 0 }), status: "interrupted" as const };
        try {
          if (deps.overSpend?.()) {
            const error = "the session has reached its spend limit (--max-spend, maxSpendUsd); do the rest without subagents or stop";
            return { job, report: reportFor({ status: "not-started", steps: 0, text: "", maxSteps: 0, error }), status: "error" as const };
          }
          let runtime: Runtime;
          try {
            runtime = await runtimeFor(job.kind);
          } catch (error) {
            return { job, report: reportFor({ status: "error", steps: 0, text: "", maxSteps: 0, error: `its model could not be set up: ${error instanceof Error ? error.message : String(error)}` }), status: "error" as const };
          }
          const tools = toolsForKind(job.kind, deps.sessionTools(), runtime.settings.webFetch.readOnlyAgents);
          const outcome = await runSubagent(job, { callId, index }, {
            model: runtime.model,
            modelId: runtime.settings.model,
            callOptions: runtime.callOptions,
            window: runtime.window,
            settings: { ...runtime.settings, maxSteps: runtime.settings.subagents.maxSteps },
            tools,
            instructions: subagentInstructions(job.kind, runtime.workspace, runtime.projectDocs),
            root: ctx.root,
            cwd: ctx.cwd,
            signal: ctx.signal,
            emit: io.emit,
            approve: io.approve,
            ...(io.redact ? { redact: io.redact } : {}),
            ...(ctx.journal ? { journal: ctx.journal } : {}),
            ...(io.onCommand ? { onCommand: io.onCommand } : {}),
            ...(io.hooks ? { hooks: io.hooks.forAgent({ id: `${callId}/${index}`, type: job.kind }) } : {}),
          });
          deps.record(outcome);
          return { job, report: outcome.report, status: outcome.status };
        } finally {
          release();
        }
      };
      const ended = await Promise.all(jobs.map(runOne));
      const finished = ended.filter((e) => e.status === "success").length;
      return {
        output: joinReports(ended.map((e) => ({ description: e.job.description, kind: e.job.kind, report: e.report }))),
        // A subagent that did not finish marks the call failed (✗), or interrupted (■) when it was stopped.
        summary: taskSummary(ended.map((e) => e.status)),
      };
    },
  });
}

/** The task call's one line: `1 report`, `3 of 3 subagents finished`; else led by `failed:` or `interrupted:` (lib/render.ts outcomeOfSummary). */
export function taskSummary(statuses: readonly string[]): string {
  const finished = statuses.filter((status) => status === "success").length;
  const text = statuses.length === 1 ? (finished === 1 ? "1 report" : `no report (${statuses[0]})`) : `${finished} of ${statuses.length} subagents finished`;
  if (finished === statuses.length) return text;
  return `${statuses.every((status) => status === "success" || status === "interrupted") ? "interrupted" : "failed"}: ${text}`;
}
