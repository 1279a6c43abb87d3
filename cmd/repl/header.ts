import { windowLabel } from "../../lib/agent/context-budget.ts";
import type { RequestEstimate } from "../../lib/agent/request-estimate.ts";
import type { Runtime } from "../../lib/agent/runtime.ts";
import { fitSegments, statusSegments } from "../../lib/prompt/status-line.ts";
import type { SandboxStatus } from "../../lib/sandbox/index.ts";
import type { Theme } from "./theme.ts";
import { isVariantName, VARIANTS } from "../../lib/config/variants.ts";
import type { ApprovalMode } from "../../lib/config/permission-schema.ts";

function modeLine(mode: ApprovalMode): string {
  if (mode === "edits") return "edits mode: file edits run without asking, commands ask: y once · a always · n deny · shift-tab switches";
  if (mode === "auto") return "auto mode: edits and sandboxed commands run without asking · shift-tab switches";
  return "edits and commands ask first (read-only commands run): y once · a always · n deny";
}

/**
 * The lines shown when the loop starts:
 *
 *   shiro 0.2.0 · gpt-5 · default agent, thinking medium · window 400,000 tokens (built-in table) · ~/src/app · new session
 *   instructions from AGENTS.md · web/CLAUDE.md        (only when such files were loaded)
 *   edits and commands ask first (read-only commands run): y once · a always · n deny
 *   sandbox on: commands write only to the workspace · network on
 *   /help lists commands · esc interrupts · ctrl-d exits
 */
export function headerLines(opts: {
  version: string;
  runtime: Runtime;
  home: string | undefined;
  sessionLabel: string | undefined;
  yolo: boolean;
  /** The approval mode the loop starts in. */
  mode?: ApprovalMode;
  theme: Theme;
  /** The terminal's width: the first line breaks between its parts, not inside one. */
  columns?: number;
}): string[] {
  const { theme, runtime } = opts;
  const cwd = opts.home && runtime.workspace.cwd.startsWith(opts.home + "/") ? "~" + runtime.workspace.cwd.slice(opts.home.length) : runtime.workspace.cwd;
  const dot = theme.dim(" · ");
  const session = opts.sessionLabel ? `session ${opts.sessionLabel}` : "new session";
  const parts = [theme.bold(`shiro ${opts.version}`), runtime.settings.model, `${runtime.settings.agent} agent, thinking ${runtime.settings.thinking}`, theme.dim(windowLabel(runtime.window.info)), cwd, theme.dim(session)];
  return [
    ...joinFitting(parts, dot, opts.columns ?? Number.POSITIVE_INFINITY),
    // The instruction files the model reads with every request, by their path in the workspace.
    ...(runtime.projectDocs.length > 0 ? [theme.dim(`instructions from ${runtime.projectDocs.map((doc) => doc.path).join(" · ")}`)] : []),
    opts.yolo
      ? theme.warn("--yolo: edits and commands run without asking")
      : theme.dim(modeLine(opts.mode ?? "ask")),
    sandboxLine(runtime.commands.status, theme),
    theme.dim("/help lists commands · esc interrupts · ctrl-d exits"),
  ];
}

/** `parts` joined by `separator` into as few rows of `width` columns as whole parts allow (a part wider than a row gets one of its own). */
export function joinFitting(parts: readonly string[], separator: string, width: number): string[] {
  const rows: string[] = [];
  let row = "";
  for (const part of parts) {
    const joined = row === "" ? part : row + separator + part;
    if (row !== "" && Bun.stringWidth(joined) > width) {
      rows.push(row);
      row = part;
    } else row = joined;
  }
  if (row !== "") rows.push(row);
  return rows;
}

/** What the sandbox is doing, in one line; unavailable or off is a warning that says what is left. */
export function sandboxLine(status: SandboxStatus, theme: Pick<Theme, "dim" | "warn">): string {
  switch (status.state) {
    case "on":
      return theme.dim(`sandbox on: commands write only to the workspace · network ${status.network ? "on" : "off"}`);
    case "off":
      return theme.warn("sandbox off (--no-sandbox, SHIRO_SANDBOX=off or config \"sandbox\": \"off\"): commands run directly on this machine");
    case "unavailable":
      return theme.warn(`sandbox unavailable: ${status.why}. To get it: ${status.fix}. Until then only the guard and approvals protect this machine.`);
    default:
      return status satisfies never;
  }
}

/**
 * The status line under the prompt, coloured by tone (amber/red context): the model (with the agent
 * when it is not the default, and the thinking level when it is not the agent's own), the next
 * request's size against the window (context-meter.ts), what the session has spent, the mode;
 * only the parts that fit in `width` columns, whole (fitSegments).
 */
export function statusLine(runtime: Runtime, context: RequestEstimate, cost: number | "unpriced" | undefined, theme: Theme, mode?: string, width = Number.POSITIVE_INFINITY, yolo = false, goal?: string): string {
  const segments = fitSegments(statusSegments({
    model: runtime.settings.model,
    // Plan mode is the plan variant: `mode plan` says it once.
    ...(runtime.settings.agent !== "default" && mode !== "plan" ? { agent: runtime.settings.agent } : {}),
    ...(runtime.settings.thinking !== variantThinking(runtime.settings.agent) ? { thinking: runtime.settings.thinking } : {}),
    ...(mode !== undefined ? { mode } : {}),
    ...(yolo ? { yolo } : {}),
    ...(goal !== undefined ? { goal } : {}),
    ...context,
    ...(cost !== undefined ? { cost } : {}),
  }), width);
  return segments.map((segment) => theme.tone(segment.tone === "normal" ? "dim" : segment.tone, segment.text)).join(theme.dim(" · "));
}

/** The thinking level an agent variant brings of its own (undefined for a name that is not one). */
function variantThinking(agent: string): string | undefined {
  return isVariantName(agent) ? VARIANTS[agent].thinking : undefined;
}
