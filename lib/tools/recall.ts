import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { RECALL_MAX_MATCHES } from "../memory/limits.ts";
import { recallNotes } from "../memory/recall.ts";
import type { MemoryStore } from "../memory/store.ts";
import { notes } from "../memory/text.ts";
import { defineTool } from "./define.ts";

const schema = v.object({
  query: v.pipe(v.string(), v.description("A few words the note would contain. Every word must appear.")),
});

export function createRecallTool(store: MemoryStore) {
  return defineTool({
    name: "recall",
    description:
      "Search this project's memory (notes saved with remember in this or earlier sessions). Every word of the query must appear " +
      'in a note, case-insensitively, so use a few distinctive words: "migration seed" finds the note about their order, not every ' +
      `note mentioning either word. Returns up to the ${RECALL_MAX_MATCHES} most recent matches as (kind) text lines. ` +
      "The most used notes are already in your instructions; recall finds the rest. A recalled note counts as used, which keeps it " +
      "verbatim when memory is compacted.",
    schema,
    mutates: false, // writes only hit counts in shiro's own store
    subject: { kind: "text", of: (input) => input.query },
    defaultDecision: "allow",
    async execute(input) {
      const result = await recallNotes(store, input.query);
      if (!result.ok) throw new ToolError(`recall: ${result.message}`);
      return { output: result.message, summary: result.matched === 0 ? "no match" : `${notes(result.matched)} matched` };
    },
  });
}
