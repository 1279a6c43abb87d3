import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { RECALL_MAX_MATCHES } from "../memory/limits.ts";
import { recallNotes } from "../memory/recall.ts";
import type { MemoryStore } from "../memory/store.ts";
import { notes } from "../memory/text.ts";
import { defineTool } from "./define.ts";

const schema = v.object({
  query: v.pipe(v.string(), v.description("A few distinctive words; all must appear.")),
});

export function createRecallTool(store: MemoryStore) {
  return defineTool({
    name: "recall",
    description:
      `Search this project's memory for notes holding every word of query (any case). The ${RECALL_MAX_MATCHES} newest matches come as "(kind) text" lines. ` +
      "The most used notes are already in your instructions.",
    schema,
    mutates: false, // writes only hit counts in shiro's own store
    subagents: "none",
    subject: { kind: "text", of: (input) => input.query },
    defaultDecision: "allow",
    async execute(input) {
      const result = await recallNotes(store, input.query);
      if (!result.ok) throw new ToolError(`recall: ${result.message}`);
      return { output: result.message, summary: result.matched === 0 ? "no match" : `${notes(result.matched)} matched` };
    },
  });
}
