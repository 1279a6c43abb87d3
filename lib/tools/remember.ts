import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { MEMORY_TEXT_MAX_CHARS } from "../memory/limits.ts";
import { rememberNote } from "../memory/remember.ts";
import { MemoryKind } from "../memory/schema.ts";
import type { MemoryStore } from "../memory/store.ts";
import { defineTool } from "./define.ts";

const schema = v.object({
  kind: v.pipe(MemoryKind, v.description("fact | decision | gotcha | command — see the tool description.")),
  text: v.pipe(v.string(), v.description(`One self-contained line, at most ${MEMORY_TEXT_MAX_CHARS} characters.`)),
});

export function createRememberTool(store: MemoryStore) {
  return defineTool({
    name: "remember",
    description: [
      "Save a note about this project for future sessions: notes are loaded into your instructions when a session starts here.",
      "Use it for what the next session would otherwise have to rediscover. Not for progress on the current task (that is todo_write).",
      "",
      "Write one self-contained line. The next session has none of this conversation, so name the file, command or reason:",
      '"use the new approach" is worthless next session (which approach?); "Pagination uses cursor tokens (lib/page.ts), not offsets: offsets skipped rows under concurrent inserts" is not.',
      "",
      "kind says how to read the note:",
      '- fact: how something is. "The API is versioned under /v2."',
      '- decision: what was chosen and why. "We use snake_case for DB columns; the ORM expects it."',
      '- gotcha: a trap. "The migration must run before the seed or the FK fails."',
      '- command: an invocation that works. "Tests run with `bun test`, not `npm test`."',
      "",
      `At most ${MEMORY_TEXT_MAX_CHARS} characters. Duplicates are refused. If a note turns out wrong, forget it and remember the correction.`,
    ].join("\n"),
    schema,
    mutates: false, // writes only shiro's own store, never the user's files
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
