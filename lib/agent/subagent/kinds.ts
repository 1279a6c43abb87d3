import type { AnyTool } from "../../tools/define.ts";
import type { ProjectDoc } from "../project-docs.ts";
import type { Environment } from "../instructions.ts";
import explore from "../prompts/subagent-explore.md" with { type: "text" };
import review from "../prompts/subagent-review.md" with { type: "text" };
import worker from "../prompts/subagent-worker.md" with { type: "text" };

/** What a subagent is for: `explore` and `review` only read; `worker` also edits and runs commands. */
export type SubagentKind = "explore" | "review" | "worker";

/**
 * The tools a subagent of `kind` is offered, chosen from the session's own (so bash and grep run in
 * the session's sandbox). Read-only kinds get the reading tools and nothing that mutates, whatever
 * the list holds: read-only by construction, not by asking. `network` (config
 * `webFetch.readOnlyAgents`) adds the tools that only read the network (web_fetch).
 */
export function toolsForKind(kind: SubagentKind, sessionTools: readonly AnyTool[], network = false): AnyTool[] {
  // The session's own tools (ToolDef.subagents "none": the task list, memory, the task tool) go to no subagent.
  if (kind === "worker") return sessionTools.filter((tool) => tool.subagents !== "none");
  const reads = (tool: AnyTool) => tool.subagents === "every" || (network && tool.reachesNetwork === true);
  return sessionTools.filter((tool) => reads(tool) && tool.subagents !== "none" && !tool.mutates && tool.subject.kind !== "command");
}

const PROMPTS: Record<SubagentKind, string> = { explore, review, worker };

/** A subagent's system prompt: its kind's, where it runs, and the project's instruction files. */
export function subagentInstructions(kind: SubagentKind, env: Environment, projectDocs: readonly ProjectDoc[]): string {
  const sections = [PROMPTS[kind].trim()];
  sections.push(
    [`Environment:`, `- working directory: ${env.cwd}`, env.root !== env.cwd ? `- workspace root: ${env.root}` : "", `- date: ${env.date}`, `- platform: ${env.platform}`]
      .filter(Boolean)
      .join("\n"),
  );
  for (const doc of projectDocs) sections.push(`Project instructions from ${doc.path}:\n${doc.text.trim()}`);
  return sections.join("\n\n");
}
