import type { Runtime } from "../agent/runtime.ts";
import type { ApprovalMode } from "../config/permission-schema.ts";
import type { HookRunRecord, Hooks } from "../hooks/hooks.ts";
import { untrustedHooksNotice } from "../hooks/plan.ts";
import { hookSetup } from "./hooks.ts";
import type { Started } from "./start.ts";

/** How long the end of a session waits for hooks still running in the background. */
const BACKGROUND_HOOKS_GRACE_MS = 5_000;

export type SessionHooksOptions = {
  disabled: boolean;
  trustProject: boolean;
  yolo: boolean;
  interactive: boolean;
  env: Record<string, string | undefined>;
};

/**
 * The hooks of a session service (docs/hooks.md): planned once per run (a config error stops
 * there, exit 2); each session opened brings its own Hooks from start.ts (SessionStart has run);
 * the service calls the points that are its own: SessionEnd, Notification, PreCompact and
 * SessionStart after /compact.
 */
export function createSessionHooks(runtime: Runtime, opts: SessionHooksOptions) {
  /** The approval mode hooks are told of: the loop's, once it gives its policy one. */
  let mode = (): ApprovalMode => runtime.settings.approvalMode;
  const setup = hookSetup(runtime, { disabled: opts.disabled, trustProject: opts.trustProject, yolo: opts.yolo, mode: () => mode(), env: opts.env });
  let current: Hooks | undefined;
  /** Context from hooks waiting for the next prompt (the conversation reads and empties it). */
  let context: string[] = [];
  /** What the SessionStart hooks of the first session did (the JSON stream reports them). */
  let startRuns: readonly HookRunRecord[] | undefined;
  const question = setup.plan.question;

  return {
    /** For startConversation, with the session's source; undefined when no hook runs. */
    options: setup.options,
    /** Which hooks run, and a project's hooks file waiting to be trusted. */
    plan: setup.plan,
    /** What to say at start: what the configuration names but shiro skips, a project's untrusted hooks. */
    notices: [
      ...setup.plan.notices,
      ...(question ? [opts.interactive ? `${question.path} has hooks you did not trust, so they do not run; shiro asks again at the next start.` : untrustedHooksNotice(question)] : []),
    ],
    disabled: opts.disabled,
    useMode(next: () => ApprovalMode) {
      mode = next;
    },
    /** A session was opened: its hooks and what its SessionStart hooks did. */
    opened(started: Pick<Started, "hooks" | "hookContext" | "hookRuns">) {
      current = started.hooks;
      context = started.hookContext;
      startRuns ??= started.hookRuns;
    },
    current: () => current,
    startRuns: (): readonly HookRunRecord[] => startRuns ?? [],
    /** SessionEnd, before the session closes; a hook still running in the background gets a few seconds first. */
    async end(reason: "exit" | "clear" | "other") {
      if (!current) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([current.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, BACKGROUND_HOOKS_GRACE_MS)))]);
      clearTimeout(timer); // a timer left running would keep the process alive after the session
      if (current.has("SessionEnd")) await current.fire("SessionEnd", { reason });
    },
    /** Notification (a question waits, the loop is idle): in the background, never waited for. */
    notify(type: "permission_prompt" | "idle_prompt", message: string) {
      if (current?.has("Notification")) void current.fire("Notification", { message, title: "shiro", notification_type: type }).catch(() => {});
    },
    /** PreCompact before /compact: the refusal to print when a hook blocks it. */
    async beforeCompact(focus: string, signal: AbortSignal): Promise<string | undefined> {
      if (!current?.has("PreCompact")) return undefined;
      const said = await current.fire("PreCompact", { trigger: "manual", custom_instructions: focus }, { signal });
      return said.blocked ? `A PreCompact hook kept /compact from running: ${said.reasons.join("; ") || "no reason given"}. The transcript is as it was.` : undefined;
    },
    /** SessionStart (compact) after /compact: what its hooks print goes with the next prompt, as at a start. */
    async afterCompact() {
      if (current?.has("SessionStart")) context.push(...(await current.fire("SessionStart", { source: "compact" })).context);
    },
  };
}
