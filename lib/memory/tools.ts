import type { AnyTool } from "../tools/define.ts";
import { createForgetTool } from "./forget.ts";
import { createRecallTool } from "./recall.ts";
import { createRememberTool } from "./remember.ts";
import type { MemoryStore } from "./store.ts";

/**
 * The three memory tools, bound to one project's store. Not offered at all with `--no-memory`.
 * Each refusal (unknown kind, empty or over-long text, duplicate, full store, empty query) is a
 * ToolError, so the model gets a tool error result naming the problem and the store is unchanged.
 */
export function createMemoryTools(store: MemoryStore): AnyTool[] {
  return [createRememberTool(store), createRecallTool(store), createForgetTool(store)];
}
