/**
 * The agent variants (`--agent`, config `agent`, `/agent`) and thinking levels (`--think`, config
 * `thinking`, `/think`): the settings each variant brings. What each one tells the model lives
 * with the prompts (lib/agent/prompts/agent-*.md).
 */
export const THINKING_LEVELS = ["off", "low", "medium", "high", "max"] as const;
export type Thinking = (typeof THINKING_LEVELS)[number];

export type Variant = {
  /** How hard the model thinks unless --think says otherwise. */
  thinking: Thinking;
  /** Read-only by construction: no tool that writes files or runs commands is offered at all. */
  readOnly: boolean;
  /** The step cap unless --max-steps, SHIRO_MAX_STEPS or config `maxSteps` says otherwise. */
  maxSteps: number;
  /** One line for `/agent` and `--help`. */
  summary: string;
};

export const VARIANTS = {
  default: { thinking: "medium", readOnly: false, maxSteps: 50, summary: "everyday work" },
  quick: { thinking: "off", readOnly: false, maxSteps: 12, summary: "small, obvious changes, no deliberation" },
  deep: { thinking: "max", readOnly: false, maxSteps: 80, summary: "hard problems: several hypotheses, verify before claiming" },
  plan: { thinking: "high", readOnly: true, maxSteps: 50, summary: "a plan of files, changes, order and checks; changes nothing" },
  review: { thinking: "high", readOnly: true, maxSteps: 50, summary: "defects in order of harm, with file, line, why and fix; changes nothing" },
} as const satisfies Record<string, Variant>;

export type VariantName = keyof typeof VARIANTS;
export const VARIANT_NAMES = Object.keys(VARIANTS) as VariantName[];

export function isVariantName(name: string): name is VariantName {
  return Object.hasOwn(VARIANTS, name);
}

export function isThinking(level: string): level is Thinking {
  return (THINKING_LEVELS as readonly string[]).includes(level);
}
