import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { issueText } from "../schema-issue.ts";

/** Results longer than this are cut, with a note telling the model how to see the rest. */
export const MAX_TOOL_RESULT_CHARS = 30_000;

export type ToolContext = {
  /** Workspace root: every path a tool touches must resolve inside it. */
  root: string;
  /** Directory the user started shiro in (inside root); relative paths resolve from here. */
  cwd: string;
  signal: AbortSignal;
  /** Live output for the screen (bash). Not sent to the model. */
  onOutput?: (stream: "stdout" | "stderr", chunk: string) => void;
};

export type ToolResult = {
  /** What the model reads. */
  output: string;
  /** One line for the screen, e.g. "42 lines" or "exit 1". */
  summary: string;
};

export type ToolDef<S extends v.GenericSchema = v.GenericSchema> = {
  name: string;
  description: string;
  schema: S;
  /** True for tools that change files or run commands: they need approval. */
  mutates: boolean;
  /** The argument that identifies the call on screen and for permission rules (path, command, pattern). */
  subject: (input: v.InferOutput<S>) => string;
  execute: (input: v.InferOutput<S>, ctx: ToolContext) => Promise<ToolResult>;
};

export type AnyTool = ToolDef<v.GenericSchema>;

/** Identity helper that keeps the schema's type attached to execute(). */
export function defineTool<S extends v.GenericSchema>(def: ToolDef<S>): ToolDef<S> {
  return def;
}

/**
 * Runs a tool the way the loop does: parse the raw input once, execute, truncate.
 * Bad input and ToolError become a thrown ToolError with an instructive message;
 * the caller turns it into a tool error result. Never lets an unexpected exception escape
 * as anything but a ToolError.
 */
export async function runTool(tool: AnyTool, rawInput: unknown, ctx: ToolContext): Promise<ToolResult> {
  const parsed = v.safeParse(tool.schema, rawInput);
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => issueText(issue)).join("; ");
    throw new ToolError(`${tool.name}: invalid arguments (${problems}). Check the tool's parameters and call it again.`);
  }
  try {
    const result = await tool.execute(parsed.output, ctx);
    return { ...result, output: truncateOutput(result.output) };
  } catch (error) {
    if (error instanceof ToolError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolError(`${tool.name} failed: ${message}`);
  }
}

export function truncateOutput(text: string, max = MAX_TOOL_RESULT_CHARS): string {
  if (text.length <= max) return text;
  const omitted = text.length - max;
  return (
    text.slice(0, max) +
    `\n\n[output truncated: ${omitted} more characters not shown. ` +
    `Narrow the request (read_file with offset/limit, a tighter grep pattern, or pipe bash output through head/tail) to see the rest.]`
  );
}
