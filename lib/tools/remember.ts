import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { MEMORY_TEXT_MAX_CHARS } from "../memory/limits.ts";
import { rememberNote } from "../memory/remember.ts";
import { MemoryKind } from "../memory/schema.ts";
import type { MemoryStore } from "../memory/store.ts";
import { defineTool } from "./define.ts";

const schema = v.object({
  kind: MemoryKind,
  text: v.string(),
});

export function createRememberTool(store: MemoryStore) {
  return defineTool({
    name: "remember",
    description: [
      "Save a note for future sessions in this project (they start with the notes). Not for this task's progress (todo_write).",
      'Write one self-contained line: the next session has none of this conversation, so name the file, command or reason ("use the new approach" is worthless next session).',
      "kind:",
      "- fact: how something is",
      "- decision: what was chosen and why",
      "- gotcha: a trap",
      "- command: an invocation that works",
      `At most ${MEMORY_TEXT_MAX_CHARS} characters; duplicates are refused. A note that turns out wrong: forget it, remember the fix.`,
    ].join("\n"),
    schema,
    mutates: false, // writes only shiro's own store, never the user's files
    subagents: "none",
    subject: { kind: "text", of: (input) => input.text },
    defaultDecision: "allow",
    digest: { note: (input) => `(${input.kind})` },
    async execute(input) {
      const result = await rememberNote(store, input);
      if (!result.ok) throw new ToolError(`remember: ${result.message}`);
      return { output: `Remembered: (${result.entry.kind}) ${result.entry.text}`, summary: `saved (${result.entry.kind})` };
    },
  });
}
