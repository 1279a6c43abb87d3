import base from "./prompts/system.md" with { type: "text" };
import type { ProjectDoc } from "./project-docs.ts";

export type Environment = { cwd: string; root: string; date: string; platform: string; shell: string };

/** Parts of the system prompt that change during a session are passed as already-rendered blocks. */
export type InstructionParts = {
  env: Environment;
  projectDocs: ProjectDoc[];
  /** The project-memory block (empty string when there is none). */
  memory?: string;
  /** The rendered task list (empty string when the list is empty). Rebuilt every step. */
  todos?: string;
};

/** Builds the system prompt. Pure; called before every step so the task list is always current. */
export function buildInstructions(parts: InstructionParts): string {
  const sections = [base.trim()];
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
  if (parts.memory) sections.push(parts.memory);
  if (parts.todos) sections.push(`Your task list for this session (update it with todo_write):\n${parts.todos}`);
  return sections.join("\n\n");
}
