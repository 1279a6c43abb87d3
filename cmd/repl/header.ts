import { windowLabel } from "../../lib/agent/context-budget.ts";
import type { RequestEstimate } from "../../lib/agent/request-estimate.ts";
import type { Runtime } from "../../lib/agent/runtime.ts";
import { fitSegments, statusSegments } from "../../lib/prompt/status-line.ts";
import type { SandboxStatus } from "../../lib/sandbox/index.ts";
import type { Theme } from "./theme.ts";
import { fitRowOrBreak, joinFitting, wrapParts, type Part } from "../../lib/text/fit-parts.ts";
import { isVariantName, VARIANTS } from "../../lib/config/variants.ts";
import type { ApprovalMode } from "../../lib/config/permission-schema.ts";

function modeLine(mode: ApprovalMode): string {
  if (mode === "edits") return "edits mode: file edits run without asking, commands ask: y once · a always · n deny · shift-tab switches";
  if (mode === "auto") return "auto mode: edits and sandboxed commands run without asking · shift-tab switches";
  return "edits and commands ask (read-only commands run): y once · a always · n deny";
}

/**
 * The lines shown when the loop starts:
 *
 *   shiro 0.2.0 · gpt-5 · default agent, thinking medium · window 400,000 tokens (built-in table) · ~/src/app · new session
 *     (narrower: broken between its parts, a path too long shortened in its middle: ~/…/packages/billing · new session)
 *   instructions from AGENTS.md · web/CLAUDE.md        (only when such files were loaded)
 *   edits and commands ask (read-only commands run): y once · a always · n deny
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
  /** The terminal's width: a line too wide breaks between its parts, never inside one; a path too long for a row is shortened in its middle. */
  columns?: number;
}): string[] {
  const { theme, runtime } = opts;
  const cwd = opts.home && runtime.workspace.cwd.startsWith(opts.home + "/") ? "~" + runtime.workspace.cwd.slice(opts.home.length) : runtime.workspace.cwd;
  const columns = opts.columns ?? Number.POSITIVE_INFINITY;
  const session = opts.sessionLabel ? `session ${opts.sessionLabel}` : "new session";
  // Broken between parts where the width needs it; the directory shortened in its middle to keep the session beside it.
  const parts: Part[] = [{ text: `shiro ${opts.version}`, paint: theme.bold }, { text: runtime.settings.model, path: true }, { text: `${runtime.settings.agent} agent, thinking ${runtime.settings.thinking}` }, { text: windowLabel(runtime.window.info), paint: theme.dim }, { text: cwd, path: true }, { text: session, paint: theme.dim, glue: true }];
  // The instruction files the model reads with every request, by their path in the workspace.
  const docs = runtime.projectDocs.map((doc, i): Part => ({ text: doc.path, path: true, paint: theme.dim, ...(i === 0 ? { lead: "instructions from " } : {}) }));
  return [
    ...joinFitting(parts, SEPARATOR, columns, theme.dim),
    ...(docs.length > 0 ? fitRowOrBreak(docs, SEPARATOR, columns, theme.dim) : []),
    // Prose: broken between its parts where it must, its words never cut.
    ...(opts.yolo ? wrapParts("--yolo: edits and commands run without asking", columns).map(theme.warn) : wrapParts(modeLine(opts.mode ?? "ask"), columns).map(theme.dim)),
    ...sandboxRows(runtime.commands.status, theme, columns),
    ...wrapParts("/help lists commands · esc interrupts · ctrl-d exits", columns).map(theme.dim),
  ];
}

/** Between the parts of a header line. */
const SEPARATOR = " · ";

/** What the sandbox is doing, in one line (rows of `columns`, broken between its parts); unavailable or off is a warning that says what is left. */
export function sandboxRows(status: SandboxStatus, theme: Pick<Theme, "dim" | "warn">, columns = Number.POSITIVE_INFINITY): string[] {
  switch (status.state) {
    case "on":
      return wrapParts(`sandbox on: commands write only to the workspace · network ${status.network ? "on" : "off"}`, columns).map(theme.dim);
    case "off":
      return wrapParts("sandbox off (--no-sandbox, SHIRO_SANDBOX=off or config \"sandbox\": \"off\"): commands run directly on this machine", columns).map(theme.warn);
    case "unavailable":
      return wrapParts(`sandbox unavailable: ${status.why}. To get it: ${status.fix}. Until then only the guard and approvals protect this machine.`, columns).map(theme.warn);
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
