import type { ModelMessage } from "ai";
import type { TurnResult } from "../../lib/agent/turn.ts";
import type { TypeAheadGuard } from "../../lib/prompt/type-ahead.ts";
import { wrapText } from "../../lib/text/wrap.ts";
import type { LoopState } from "./loop-state.ts";
import type { ReplSession } from "./session.ts";
import type { Theme } from "./theme.ts";

/** How an accepted plan shows as the prompt in the transcript (the model gets the whole plan). */
export const ACCEPTED_PLAN_SHOWN = "(plan accepted) carry out the plan above";

/**
 * The instruction an accepted plan becomes: the next turn's prompt, with the plan in full, so the
 * turn that changes things works from the plan itself and not from a memory of it. Pure.
 */
export function acceptedPlanPrompt(plan: string): string {
  return [
    "I accept the plan below. Carry it out now: make the changes it lists, in its order, and run the checks it names; say what you verified and what you could not.",
    "",
    "Plan:",
    "",
    plan.trim(),
  ].join("\n");
}

/** The text of the last assistant message among `messages` (the answer a turn ended with); "" when there is none. */
export function finalAnswer(messages: readonly ModelMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "assistant") continue;
    const text = typeof message.content === "string" ? message.content : message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
    if (text.trim() !== "") return text;
  }
  return "";
}

export type PlanHandoffDeps = {
  state: LoopState;
  session: () => ReplSession;
  theme: Theme;
  /** The screen redraws: the offer is a row under the input while it stands; otherwise it is printed once. */
  rich: boolean;
  typeAhead: TypeAheadGuard;
  /** How prompts were shown in the input, by the text they send (the accepted plan shows short). */
  shownAs: Map<string, string>;
  print: (text: string) => void;
};

/**
 * The hand-off from plan mode to editing. A turn that started in plan mode and ended with an
 * answer offers that answer as the plan: enter on an empty prompt accepts it (only once the
 * keyboard was quiet since the offer appeared, the rule approval keys follow: an enter typed ahead
 * accepts nothing), the session goes back to the variant it had before plan mode and to `edits`,
 * and the plan is sent as the next prompt. Esc declines (plan mode goes on); typing sends a
 * prompt as usual, in plan mode, which refines the plan (its turn makes a new offer). The offer
 * lapses when plan mode ends or another session is opened.
 */
export function createPlanHandoff(deps: PlanHandoffDeps) {
  const { state, theme } = deps;
  let offer: { plan: string; session: string } | undefined;
  /** The turn now running started in plan mode. */
  let planning = false;
  /** The prompt an accepted plan became, until the loop takes it (isAccepted). */
  let accepted: string | undefined;

  const offered = (): boolean => offer !== undefined && offer.session === deps.session().id() && deps.session().mode().planning;
  /** The offer's words, naming where accepting goes. */
  const words = () => `plan ready · enter accepts it (agent ${deps.session().planReturnsTo() ?? "default"}, mode edits) · type to refine it · esc keeps planning`;

  return {
    /** A turn starts: what it offers depends on the mode it starts in; an older offer is gone. */
    turnStarted(): void {
      offer = undefined;
      planning = deps.session().mode().planning;
    },
    /** A turn ended (undefined: it threw): one in plan mode that ended with an answer offers it. */
    turnEnded(result: TurnResult | undefined): void {
      const plan = planning && result?.status === "success" ? finalAnswer(result.messages) : "";
      planning = false;
      if (plan.trim() === "" || !deps.session().mode().planning) return;
      offer = { plan, session: deps.session().id() };
      deps.typeAhead.questionShown();
      if (!deps.rich) deps.print(theme.warn(words()));
    },
    offered,
    /** The offer's rows under the input, while it stands (rich screens). */
    rows(width: number): string[] {
      return deps.rich && offered() && state.waiting ? wrapText(words(), width).map((row) => theme.warn(row)) : [];
    },
    /** Enter at the offer: back to the variant before plan mode, in edits mode, and the plan sent as the next prompt. */
    accept(): void {
      const resolve = state.waiting;
      if (!offer || !resolve) return;
      const prompt = acceptedPlanPrompt(offer.plan);
      offer = undefined;
      deps.print(theme.dim(deps.session().acceptPlan()));
      deps.shownAs.set(prompt, ACCEPTED_PLAN_SHOWN);
      accepted = prompt;
      state.waiting = undefined;
      resolve(prompt);
    },
    /**
     * Whether `text`, just submitted, is the accepted plan: the loop sends it as it is (the model's
     * words are not scanned for `@path`s to attach), shown as ACCEPTED_PLAN_SHOWN. Once.
     */
    isAccepted(text: string): boolean {
      if (accepted === undefined || text !== accepted) return false;
      accepted = undefined;
      return true;
    },
    /** Esc at the offer: plan mode goes on. */
    decline(): void {
      offer = undefined;
      deps.print(theme.dim("plan mode goes on: say what to change in the plan, or shift-tab to leave plan mode"));
    },
  };
}

export type PlanHandoff = ReturnType<typeof createPlanHandoff>;
