import type { VariantName } from "../config/variants.ts";
import deep from "./prompts/agent-deep.md" with { type: "text" };
import plan from "./prompts/agent-plan.md" with { type: "text" };
import quick from "./prompts/agent-quick.md" with { type: "text" };
import review from "./prompts/agent-review.md" with { type: "text" };
import base from "./prompts/system.md" with { type: "text" };
import type { ProjectDoc } from "./project-docs.ts";

/** What each variant adds to the system prompt (default adds nothing). */
const APPENDIX: Record<VariantName, string> = { default: "", quick, deep, plan, review };

/** Where the session works, and the user's home directory (`$HOME`, else the system's; computed once, lib/config/load.ts userHomeOf). */
export type Environment = { cwd: string; root: string; date: string; platform: string; shell: string; userHome: string };

/** The parts of the system prompt, the blocks already rendered. */
export type InstructionParts = {
  env: Environment;
  projectDocs: ProjectDoc[];
  /** The project-memory block (empty string when there is none). */
  memory?: string;
  /** The names of the tools offered: the rules that follow speak only of what the model can do. */
  tools?: readonly string[];
  agent?: VariantName;
  /** The model id: GPT-5 and codex models are pointed to apply_patch, the edit format they are trained on. */
  model?: string;
  /** The session's skills, by name and description only (the skill tool gives the rest); listed when that tool is offered. */
  skills?: readonly { name: string; description: string }[];
};

/** OpenAI's GPT-5 family and its codex models (also behind a router: `openai/gpt-5-mini`). */
export function writesPatches(model: string | undefined): boolean {
  return model !== undefined && /(^|[/:])(gpt-5|codex)/i.test(model);
}

/** The rules that depend on the tools the model actually has. */
function toolRules(tools: readonly string[], model?: string): string[] {
  const has = (name: string) => tools.includes(name);
  const rules: string[] = [];
  const edits = has("edit_file") || has("write_file");
  if (edits) {
    rules.push("- Make the smallest change that does the job, in the style of the surrounding code.");
    if (has("apply_patch") && writesPatches(model)) {
      rules.push("- Edit files with apply_patch (the *** Begin Patch format): one call can add, update, move and delete several files.");
    } else if (has("edit_file")) rules.push("- Prefer edit_file/multi_edit for changes to existing files; write_file is for new files or full rewrites.");
  } else rules.push("- You cannot change files here: describe the change instead (file, place, new text).");
  if (has("bash")) {
    rules.push("- After changing code, run the project's tests or a quick check with bash when one exists, and report the outcome honestly.");
    rules.push("- Destructive or irreversible commands (deleting outside the workspace, force pushes, dropping data) are the user's to run, not yours.");
  } else rules.push("- You cannot run commands here: say which command should be run, and why, when one would settle a question.");
  if (has("task")) rules.push("- For a wide search or review, or independent pieces of work, use task: subagents work in their own context and only their reports come back; run independent ones together in tasks.");
  return rules;
}

/**
 * Builds the system prompt. Pure. Nothing in it changes during a session (the memory block is the
 * one loaded at its start; the task list goes at the end of each request instead, see
 * task-list-note.ts), so every request of a session starts with the same bytes and the provider
 * can cache them.
 */
export function buildInstructions(parts: InstructionParts): string {
  const tools = parts.tools ?? ["edit_file", "write_file", "bash"];
  const sections = [[base.trim(), ...toolRules(tools, parts.model)].join("\n")];
  const appendix = parts.agent ? APPENDIX[parts.agent].trim() : "";
  if (appendix) sections.push(appendix);
  const { env } = parts;
  sections.push(
    [
      "Environment:",
      `- working directory: ${env.cwd}`,
      env.root !== env.cwd ? `- workspace root: ${env.root}` : "",
      `- date: ${env.date}`,
      `- platform: ${env.platform}, shell: ${env.shell}`,
    ]
      .filter(Boolean)
      .join("\n"),
  );
  for (const doc of parts.projectDocs) {
    sections.push(`Project instructions from ${doc.path}:\n${doc.text.trim()}`);
  }
  if (parts.skills && parts.skills.length > 0 && tools.includes("skill")) {
    const list = parts.skills.map((skill) => `- ${skill.name}: ${skill.description}`);
    sections.push(["Skills (instructions for particular tasks): when one fits the task, call skill with its name first and follow it.", ...list].join("\n"));
  }
  if (parts.memory) sections.push(parts.memory);
  return sections.join("\n\n");
}
