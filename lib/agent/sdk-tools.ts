import { jsonSchema, type ToolSet } from "ai";
import { toolJsonSchema, type AnyTool } from "../tools/define.ts";
import { runToolCall, type ToolCallOptions } from "./tool-call.ts";
import { storedImageOf, storedImagePart, type StoredImage } from "../image/part.ts";

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
      execute: async (input: unknown, { toolCallId }: { toolCallId: string }) => withImages(await runToolCall(def, input, toolCallId, opts)),
    } as ToolSet[string];
  }
  return set;
}

/**
 * A call's return value for the SDK: its text, or, when it shows images, the text and each image
 * as a stored image part (response-messages.ts keeps that `content` output as it is; the
 * request carries the bytes: wire-images.ts).
 */
function withImages(outcome: { output: string; images?: readonly StoredImage[] }): string | ImageContent {
  if (!outcome.images?.length) return outcome.output;
  return { type: "content", value: [{ type: "text", text: outcome.output }, ...outcome.images.map(storedImagePart)] };
}

/** A tool result's output carrying images (and what response-messages.ts recognises as one). */
export type ImageContent = { type: "content"; value: ({ type: "text"; text: string } | ReturnType<typeof storedImagePart>)[] };

export function isImageContent(output: unknown): output is ImageContent {
  const o = output as { type?: unknown; value?: unknown } | null;
  return typeof o === "object" && o !== null && o.type === "content" && Array.isArray(o.value) && o.value.some((p) => storedImageOf(p));
}
