import { jsonSchema, type ToolSet } from "ai";
import { toolJsonSchema, type AnyTool } from "../tools/define.ts";
import { runToolCall, type ToolCallOptions } from "./tool-call.ts";

const schemaCache = new WeakMap<AnyTool, ReturnType<typeof jsonSchema>>();

function inputSchemaFor(tool: AnyTool) {
  let schema = schemaCache.get(tool);
  if (!schema) {
    // Validation is ours (runTool), so the model gets our instructive message, not the SDK's.
    schema = jsonSchema(toolJsonSchema(tool) as Parameters<typeof jsonSchema>[0]);
    schemaCache.set(tool, schema);
  }
  return schema;
}

/** shiro's tools as the SDK's ToolSet: each execute is one runToolCall (tool-call.ts), which reports the call. */
export function toSdkTools(tools: readonly AnyTool[], opts: ToolCallOptions): ToolSet {
  const set: ToolSet = {};
  for (const def of tools) {
    set[def.name] = {
      description: def.description,
      inputSchema: inputSchemaFor(def),
      execute: async (input: unknown, { toolCallId }: { toolCallId: string }) => (await runToolCall(def, input, toolCallId, opts)).output,
    } as ToolSet[string];
  }
  return set;
}
