import type { AppSession } from "../../lib/app/session.ts";
import { isVariantName, VARIANTS } from "../../lib/config/variants.ts";

/** The variant plan mode runs: its read-only tools, its prompt and its thinking level (docs/agents.md). */
export const PLAN_VARIANT = "plan";

/**
 * Plan mode, one of the loop's modes (shift-tab, `/mode plan`): the session runs the `plan`
 * variant, as `--agent plan` does, and remembers the variant it had before, to go back to when
 * plan mode ends (the plan accepted, shift-tab on, `/mode`). A session that was on a read-only
 * variant already (plan, review) goes back to `default`: going back to one that cannot change
 * anything would make accepting a plan pointless. `/agent <name>` while planning is an explicit
 * choice: plan mode is over and nothing is switched back (forget).
 */
export function createPlanMode(session: Pick<AppSession, "runtime" | "switchAgent">) {
  /** The variant to go back to; undefined while not planning. */
  let from: string | undefined;
  const agent = () => session.runtime().settings.agent;

  /**
   * Switches the session's variant. switchAgent resolves the settings again synchronously, before
   * its first await, so whether it worked is known at once; a name that did not take is said.
   */
  const switchTo = (name: string): string | undefined => {
    session.switchAgent(name).catch(() => {}); // a failure shows as the variant unchanged, below
    return agent() === name ? undefined : `could not switch to agent ${name}; still on ${agent()}`;
  };

  return {
    /** Plan mode is on: entered here and the plan variant still in use. */
    active: (): boolean => from !== undefined && agent() === PLAN_VARIANT,
    /** Into plan mode; the line to print. */
    enter(): string {
      const before = agent();
      const failed = switchTo(PLAN_VARIANT);
      if (failed) return failed;
      from = isVariantName(before) && VARIANTS[before].readOnly ? "default" : before;
      return `mode plan: agent ${PLAN_VARIANT}'s read-only tools and prompt; when a plan is ready, enter accepts it (then agent ${from}, mode edits)`;
    },
    /** Out of plan mode, back to the variant before it; the line to print, undefined when it was not on. */
    leave(): string | undefined {
      if (from === undefined) return undefined;
      const back = from;
      from = undefined;
      if (agent() !== PLAN_VARIANT) return undefined; // /agent moved it already
      return switchTo(back) ?? `plan mode off: agent ${back} again`;
    },
    /** `/agent` chose a variant while planning: plan mode ends where it is. */
    forget(): void {
      from = undefined;
    },
    /** The variant accepting the plan goes back to. */
    returnsTo: (): string | undefined => from,
  };
}
