import type { Runtime } from "../agent/runtime.ts";
import type { ApprovalMode } from "../config/permission-schema.ts";
import { ShiroError } from "../errors.ts";
import { claudePermissionMode } from "../hooks/events.ts";
import { planHooks, type HookPlan } from "../hooks/plan.ts";
import { childEnv } from "../sandbox/child-env.ts";
import type { SessionHooksOptions } from "./start.ts";

export type HookSetup = {
  /** What startConversation takes (with the session's source); absent when no hook runs. */
  options: Omit<SessionHooksOptions, "source"> | undefined;
  plan: HookPlan;
};

/**
 * The session's hooks for either mode: the plan (user config, a trusted project file), with its
 * problems as a config error (exit 2), and what every hook's input says about the session.
 * `mode` is read at each event (shift-tab changes it); the plan agent reads as Claude Code's plan mode.
 */
export function hookSetup(
  runtime: Runtime,
  opts: { disabled: boolean; trustProject: boolean; yolo: boolean; mode: () => ApprovalMode; env: Record<string, string | undefined> },
): HookSetup {
  const plan = planHooks({ config: runtime.config, root: runtime.workspace.root, home: runtime.home, disabled: opts.disabled, trustProject: opts.trustProject });
  if (plan.errors.length > 0) throw new ShiroError("config", `${plan.errors[0]}. Fix it in the config file (shiro help hooks).`);
  if (plan.table.size === 0) return { options: undefined, plan };
  return {
    plan,
    options: {
      plan,
      permissionMode: () => claudePermissionMode(runtime.settings.agent === "plan" ? "plan" : opts.mode(), opts.yolo),
      // A hook is the user's own policy: their environment, without the key.
      env: childEnv(opts.env, runtime.settings.apiKey),
      ...(runtime.config.maxStopHookBlocks !== undefined ? { maxStopBlocks: runtime.config.maxStopHookBlocks } : {}),
    },
  };
}
