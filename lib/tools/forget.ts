import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { forgetNotes } from "../memory/forget.ts";
import type { MemoryStore } from "../memory/store.ts";
import { notes } from "../memory/text.ts";
import { defineTool } from "./define.ts";

const schema = v.object({
  text: v.pipe(v.string(), v.description("Text the notes contain (any case).")),
});

export function createForgetTool(store: MemoryStore) {
  return defineTool({
    name: "forget",
    description:
      "Remove every note containing text from this project's memory (be specific) and list them. For a note gone wrong or stale.",
    schema,
    mutates: false, // writes only shiro's own store, never the user's files
    subagents: "none",
    subject: { kind: "text", of: (input) => input.text },
    defaultDecision: "allow",
    async execute(input) {
      const result = await forgetNotes(store, input.text);
      if (!result.ok) throw new ToolError(`forget: ${result.message}`);
      return { output: result.message, summary: result.removed.length === 0 ? "none matched" : `${notes(result.removed.length)} removed` };
    },
  });
}
