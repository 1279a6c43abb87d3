import { jsonSchema, type ToolSet } from "ai";
import { toJsonSchema } from "@valibot/to-json-schema";
import type { EventSink } from "../events.ts";
import { runTool, subjectOf, type AnyTool } from "../tools/define.ts";

/**
 * `signal`, when given with an allow, stops this one call without stopping the turn (the
 * interactive loop's ctrl-c on a running bash): the tool sees it aborted and reports an
 * interrupted result the model can read, and the turn goes on.
 */
export type Approval = { allow: true; signal?: AbortSignal } | { allow: false; reason: string };

/** Decides whether a call may run. Asked for every call, before it runs. */
export type Approver = (call: { tool: AnyTool; input: unknown; subject: string; id: string }) => Promise<Approval>;

/** Per-step bookkeeping the stream reader needs from the tools' execute functions. */
export type CallLedger = {
  summaries: Map<string, string>;
  denied: Set<string>;
};

const schemaCache = new WeakMap<AnyTool, ReturnType<typeof jsonSchema>>();

function inputSchemaFor(tool: AnyTool) {
  let schema = schemaCache.get(tool);
  if (!schema) {
    // Validation is ours (runTool), so the model gets our instructive message, not the SDK's.
    schema = jsonSchema(toJsonSchema(tool.schema, { errorMode: "ignore" }) as Parameters<typeof jsonSchema>[0]);
    schemaCache.set(tool, schema);
  }
  return schema;
}

/**
 * Adapts shiro's tools to the SDK's ToolSet. Each call is approved, run through runTool (parse,
 * execute, truncate) and reported; a denial becomes a readable result, a failure a thrown
 * ToolError that the SDK turns into an error result for the model.
 */
export function toSdkTools(
  tools: readonly AnyTool[],
  opts: {
    root: string;
    cwd: string;
    signal: AbortSignal;
    emit: EventSink;
    approve: Approver;
    ledger: CallLedger;
    /** Applied to everything a tool prints or returns (the API key must not reach the model or a file). */
    redact?: (text: string) => string;
  },
): ToolSet {
  const set: ToolSet = {};
  const redact = opts.redact ?? ((text: string) => text);
  for (const def of tools) {
    set[def.name] = {
      description: def.description,
      inputSchema: inputSchemaFor(def),
      execute: async (input: unknown, { toolCallId }: { toolCallId: string }) => {
        const subject = subjectOf(def, input) ?? "";
        const decision = await opts.approve({ tool: def, input, subject, id: toolCallId });
        if (!decision.allow) {
          opts.ledger.denied.add(toolCallId);
          opts.emit({ type: "tool-denied", id: toolCallId, tool: def.name, subject: subject || undefined, reason: decision.reason });
          return `Not run: ${decision.reason}`;
        }
        const result = await runTool(def, input, {
          root: opts.root,
          cwd: opts.cwd,
          signal: decision.signal ? AbortSignal.any([opts.signal, decision.signal]) : opts.signal,
          onOutput: (stream, chunk) => opts.emit({ type: "tool-output", id: toolCallId, tool: def.name, stream, chunk: redact(chunk) }),
        });
        opts.ledger.summaries.set(toolCallId, result.summary);
        return redact(result.output);
      },
    } as ToolSet[string];
  }
  return set;
}
