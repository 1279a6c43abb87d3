import type { ModelMessage } from "ai";
import type { TurnStatus } from "../../events.ts";

/** The most of a subagent's report the parent reads; past it the report is cut, with a note. */
export const MAX_REPORT_CHARS = 8_000;

export const NO_FINDINGS = "Subagent returned no findings.";

/** The text of the last assistant message that has any: the subagent's final answer. */
export function finalText(messages: readonly ModelMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== "assistant") continue;
    const text = typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : "")).join("");
    if (text.trim()) return text.trim();
  }
  return "";
}

/** What the parent reads from one subagent: its report, or what stopped it and what it had said. */
export function reportFor(outcome: { status: TurnStatus | "not-started"; steps: number; text: string; error?: string; maxSteps: number }): string {
  // "not-started" carries its reason in `error`.
  const said = outcome.text ? `\nWhat it had reported so far:\n${outcome.text}` : "";
  switch (outcome.status) {
    case "success":
      return cap(outcome.text || NO_FINDINGS);
    case "step-cap":
      return cap(`Subagent stopped at its step cap (${outcome.maxSteps} steps) before it finished; narrow the task or split it.${said}`);
    case "interrupted":
      return cap(`Subagent was interrupted after ${outcome.steps} ${outcome.steps === 1 ? "step" : "steps"}, before it finished.${said}`);
    case "not-started":
      return `Subagent was not started: ${outcome.error ?? "the turn was interrupted first"}.`;
    case "error":
      return cap(`Subagent failed: ${outcome.error ?? "unknown error"}${said}`);
    default:
      return outcome.status satisfies never;
  }
}

function cap(text: string): string {
  if (text.length <= MAX_REPORT_CHARS) return text;
  return `${text.slice(0, MAX_REPORT_CHARS)}\n\n[report cut at ${MAX_REPORT_CHARS} characters; ${text.length - MAX_REPORT_CHARS} more not shown]`;
}

/** Several reports, in the order the tasks were given, each under its description. */
export function joinReports(reports: readonly { description: string; kind: string; report: string }[]): string {
  if (reports.length === 1) return reports[0]!.report;
  return reports.map((r, i) => `## ${i + 1}. ${r.description} (${r.kind})\n\n${r.report}`).join("\n\n");
}
