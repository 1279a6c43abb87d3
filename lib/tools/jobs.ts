import * as v from "valibot";
import { ToolError } from "../errors.ts";
import type { Commands, JobState, JobTable, JobView } from "../sandbox/index.ts";
import { defaultCommands } from "./commands.ts";
import { defineTool } from "./define.ts";
import { overstrikeLines } from "../text/overstrike.ts";

/** How long `output` waits, by default, for new output or the end when there is none yet. */
export const DEFAULT_JOB_WAIT_S = 5;
export const MAX_JOB_WAIT_S = 120;

const schema = v.object({
  operation: v.picklist(["output", "kill", "list"]),
  id: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  wait: v.optional(v.pipe(v.number(), v.minValue(0), v.description(`output: seconds to wait for new output or the end, default ${DEFAULT_JOB_WAIT_S}, max ${MAX_JOB_WAIT_S}.`))),
});

/**
 * `jobs`: the model's side of background commands (bash `background: true`): read a job's new
 * output (waiting a while for some), stop it with its whole process group, or list them. One tool
 * with an operation, to keep every request small.
 */
export function createJobsTool(commands?: Commands) {
  return defineTool({
    name: "jobs",
    description: "Background commands (bash background: true): output (new output since the last read), kill, or list.",
    schema,
    mutates: false,
    subject: { kind: "text", of: (input) => (input.id === undefined ? input.operation : `${input.operation} ${input.id}`) },
    defaultDecision: "allow",
    async execute(input, ctx) {
      const jobs = (commands ?? defaultCommands(ctx.root)).jobs;
      const ended = endedNote(jobs, input.id);
      if (input.operation === "list") {
        const all = jobs.list();
        const lines = all.map((job) => `job ${job.id} · ${stateWords(job.state, job.startedAt)} · ${job.command}`);
        return { output: (lines.join("\n") || "No background jobs.") + ended, summary: all.length === 1 ? "1 job" : `${all.length} jobs` };
      }
      if (input.id === undefined) throw new ToolError(`jobs: ${input.operation} needs the job's id (list shows them).`);
      if (input.operation === "kill") {
        const outcome = await jobs.kill(input.id);
        if (outcome === "unknown") throw new ToolError(`jobs: there is no job ${input.id} (list shows them).`);
        const said = outcome === "stopped" ? `Job ${input.id} was stopped with every process it started.` : `Job ${input.id} had already ended.`;
        return { output: said + ended, summary: outcome };
      }
      const waitS = Math.min(input.wait ?? DEFAULT_JOB_WAIT_S, MAX_JOB_WAIT_S);
      const read = await jobs.read(input.id, waitS * 1000, ctx.signal);
      if (!read) throw new ToolError(`jobs: there is no job ${input.id} (list shows them).`);
      const job = jobs.list().find((j) => j.id === input.id)!;
      const skipped = read.skipped > 0 ? `[… ${read.skipped} earlier characters not shown${job.file ? `; all of it is in ${job.file}` : ""}]\n` : "";
      // A progress line redrawn with carriage returns reads as its last state, as in a bash result.
      const body = read.text ? skipped + overstrikeLines(read.text) : `(no new output${read.state.type === "running" && waitS > 0 ? ` in ${waitS}s` : ""})`;
      return { output: `Job ${input.id} is ${stateWords(read.state, job.startedAt)}.\n${body}${ended}`, summary: stateWords(read.state, job.startedAt) };
    },
  });
}

/** The jobs tool of tests: commands run directly. */
export const jobsTool = createJobsTool();

/** A job's state in words: `running 1m12s`, `exited 0`, `killed by SIGTERM`, `stopped`. */
export function stateWords(state: JobState, startedAt: number, now = Date.now()): string {
  if (state.type === "running") return `running ${elapsed(now - startedAt)}`;
  if (state.type === "killed") return "stopped";
  return state.exit.signal ? `killed by ${state.exit.signal}` : `exited ${state.exit.exitCode}`;
}

/** `45s`, `1m12s`, `2h03m`. */
export function elapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** The jobs (other than `except`) that ended on their own since the model last heard: told once. */
export function endedNote(jobs: JobTable, except?: number): string {
  const ended = jobs.takeEnded().filter((job: JobView) => job.id !== except);
  return ended.length === 0 ? "" : "\n" + ended.map((job) => `[shiro: background job ${job.id} (${job.command}) has ended: ${stateWords(job.state, job.startedAt)}.]`).join("\n");
}
