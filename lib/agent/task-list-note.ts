import type { ModelMessage } from "ai";

/** How the note starts: it says who wrote it, so the model does not take it for the user speaking. */
export const TASK_LIST_NOTE_HEADER = "[shiro] Your task list for this session, as it stands now (update it with todo_write; this note is from shiro, not the user):";

/**
 * The task list as the last item of a request: rebuilt before every step and sent on the wire
 * only, never stored in the history. At the end of the request it changes nothing before it, so a
 * `todo_write` keeps the provider's cache of the whole conversation (in the system prompt it would
 * throw that cache away every time). A user message, the one kind every server accepts after a
 * step's tool results. Nothing when the list is empty and there is no goal.
 */
export function taskListNote(rendered: string, goal = ""): ModelMessage[] {
  // The session's goal (lib/agent/goal.ts goalNote) goes in the same note, first: one user message
  // at the end, so pruning and /compact never lose it either.
  const parts = [goal, rendered ? `${TASK_LIST_NOTE_HEADER}\n${rendered}` : ""].filter(Boolean);
  if (parts.length === 0) return [];
  return [{ role: "user", content: parts.join("\n\n") }];
}
