import * as v from "valibot";
import { toJsonSchema } from "@valibot/to-json-schema";
import { ToolError } from "../errors.ts";
import { issueText } from "../text/schema-issue.ts";
import type { StoredImage } from "../image/part.ts";
import type { ImageStore } from "../image/store.ts";

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
  /** A one-line notice for the user, shown as shiro's own (not the tool's output). Not sent to the model. */
  notice?: (message: string) => void;
  /**
   * Asks whether a command that failed in the sandbox, because of the sandbox (`why`), may run
   * once more outside it. Only the interactive loop gives one (never headless); it resolves false
   * when the user says no or the command may not run outside (the guard).
   */
  runOutside?: (why: string) => Promise<boolean>;
  /**
   * The command was judged read-only (Approval.readOnly): bash runs it with PATH cut to its
   * absolute entries outside the workspace, so the programs it names are the system's.
   */
  readOnly?: boolean;
  /** The turn's record of changed files, for /undo. Absent outside a session (unit tests, previews). */
  journal?: FileJournal;
  /** The id of the call being run (the task tool names its subagents' events by it). */
  callId?: string;
  /** Where an image a tool shows the model is kept (read_file); absent where images are not sent (a subagent, a unit test). */
  images?: Pick<ImageStore, "put">;
};

/**
 * What a file tool tells the turn before it changes a file, so `/undo` can put it back. Every
 * tool that writes, creates, moves or deletes a file awaits `before(abs)` for each path it is
 * about to change (a move: both ends), after its checks and before the first byte is written.
 * The first call for a path in a turn keeps its state (content and mode, or absence); later
 * calls are cheap no-ops. A subagent doing work for the turn gets the same journal, so its edits
 * count as the turn's. Never throws for a file it cannot keep (too large): that is recorded.
 */
export type FileJournal = {
  before(abs: string): Promise<void>;
};

/**
 * What the model reads for a call that was not approved: this, then the reason. Written by
 * lib/agent/tool-call.ts; the pruned-span digest recognises it.
 */
export const NOT_RUN_PREFIX = "Not run: ";

export type ToolResult = {
  /** What the model reads. */
  output: string;
  /** One line for the screen, e.g. "42 lines" or "exit 1". */
  summary: string;
  /** bash: the command's exit code; null when it did not exit on its own (timeout, signal, interrupt). */
  exitCode?: number | null;
  /** Images the model sees after `output` (read_file of an image), kept in the context's store. */
  images?: StoredImage[];
};

/**
 * What kind of argument identifies a call. Permissions read it: a `path` is matched against rules
 * relative to the workspace root (`./src/a.ts` as `src/a.ts`); a `command` is a bash line whose
 * simple commands are judged one by one, read by the safety guard and checked for secrets files;
 * a `pattern` or `text` is matched as written.
 */
export type SubjectKind = "path" | "command" | "pattern" | "text";

export type ToolSubject<I> = {
  kind: SubjectKind;
  /** The argument on screen and for permission rules: the path, command, pattern or text. */
  of: (input: I) => string;
  /**
   * For a path: the call shows the file's content (or moves it where it can be read), so a secrets
   * file (.env, *.pem) is denied before any rule is read.
   */
  readsContent?: boolean;
  /**
   * For a call that touches several paths (apply_patch, move_file): each of them, as written.
   * Permissions judge every one (the strictest answer wins); `of` is then only what the screen shows.
   */
  paths?: (input: I) => string[];
};

/** What a call gets when no config rule matches it. A tool that mutates is never allowed by default, whatever this says. */
export type DefaultDecision = "allow" | "ask" | "deny";

/** Where a preview looks: the workspace root and the directory relative paths start from. */
export type PreviewContext = Pick<ToolContext, "root" | "cwd">;

/**
 * What a file-changing call would do, for the approval prompt; `path` as displayed. `change`:
 * the file before (undefined for a new file) and after. `unavailable`: the file cannot be read,
 * and `fails`: the call will be refused; the tool reports the same to the model if it runs.
 */
export type ToolPreview =
  | { type: "change"; path: string; before: string | undefined; after: string }
  /** The file would be removed; `before` is its text (undefined when it could not be read). */
  | { type: "delete"; path: string; before: string | undefined }
  /** The file would move to `to`, its text going from `before` to `after` (the same for a plain move). */
  | { type: "move"; path: string; to: string; before: string; after: string }
  | { type: "unavailable"; path: string; why: string }
  | { type: "fails"; path: string; why: string };

/** How a call reads in the one-line digest that stands for it once its content is pruned (lib/prune/digest.ts). */
export type DigestHints<I> = {
  /** Words after the subject that tell calls apart: `in src`, `from line 200`, `(2 edits)`. Sees the input as the model sent it. */
  note?: (input: I) => string | undefined;
  /** What one line of a multi-line result is, e.g. ["match", "matches"]. Default: lines. */
  unit?: readonly [one: string, many: string];
};

export type ToolDef<S extends v.GenericSchema = v.GenericSchema> = {
  name: string;
  description: string;
  schema: S;
  /** True for tools that change files or run commands: they need approval. */
  mutates: boolean;
  /**
   * True for a tool that reaches the network (web_fetch). Changing nothing, it is still not
   * read-only by construction: read-only tool sets leave it out unless the config lets them have it.
   */
  reachesNetwork?: boolean;
  /**
   * Which subagents get the tool. "every": it only reads the workspace (files, searches, git
   * history), so the read-only ones (explore, review) get it too; "none": it is the session's own
   * (the task list, memory, subagents). Unset: workers only. A read-only subagent never gets a
   * tool that mutates or runs commands, whatever this says.
   */
  subagents?: "every" | "none";
  /** True for a tool whose call runs subagents (task): their edits are the changes of the call's step. */
  startsSubagents?: boolean;
  subject: ToolSubject<v.InferOutput<S>>;
  /**
   * How the approval question words a call that has no preview, naming its subject once:
   * `web_fetch wants to fetch https://…` (`verb` "fetch"), `mcp wants to call issues/close_issue {"id":12}`
   * (`by` "mcp", `what` the server's tool and the arguments). Without it: `<tool> wants to run: <subject>` and the arguments.
   */
  asks?: (input: v.InferOutput<S>) => { by?: string; verb: string; what: string };
  defaultDecision: DefaultDecision;
  /**
   * The change the call would make, computed without writing; one entry per file for a call that
   * changes several. Without one, the prompt shows the subject.
   */
  preview?: (input: v.InferOutput<S>, ctx: PreviewContext) => ToolPreview | readonly ToolPreview[];
  digest?: DigestHints<v.InferOutput<S>>;
  /**
   * The checks execute would make before it changes anything (the path is inside the workspace,
   * the old text is in the file once, the file is not a secrets file), without changing anything.
   * Throws the same ToolError execute would. The interactive loop runs it before asking, so a
   * call that cannot succeed fails without a question. Share the code with execute; never copy it.
   */
  precheck?: (input: v.InferOutput<S>, ctx: PreviewContext) => void | Promise<void>;
  /**
   * The input's JSON Schema as the model sees it, for a tool whose schema comes from elsewhere (an
   * MCP server's). Without one it is derived from `schema`. Validation is still `schema`'s.
   */
  jsonSchema?: Record<string, unknown>;
  /**
   * For a tool that calls another tool by name (mcp_call): that call, so permissions judge the
   * real tool and its arguments rather than the go-between. Undefined when it names no known tool.
   */
  standsFor?: (input: unknown) => { tool: ToolDef<any>; input: unknown } | undefined;
  execute: (input: v.InferOutput<S>, ctx: ToolContext) => Promise<ToolResult>;
};

/**
 * The JSON Schema of a tool's input, as requests carry it (cached per tool). Without the
 * `$schema` dialect line: it tells a model nothing and would cost every request ~60 bytes a tool.
 */
export function toolJsonSchema(tool: ToolDef<any>): Record<string, unknown> {
  let schema = jsonSchemas.get(tool);
  if (!schema) {
    const { $schema: _dialect, ...rest } = tool.jsonSchema ?? (toJsonSchema(tool.schema, { errorMode: "ignore" }) as Record<string, unknown>);
    schema = rest;
    jsonSchemas.set(tool, schema);
  }
  return schema;
}
const jsonSchemas = new WeakMap<ToolDef<any>, Record<string, unknown>>();

/** Any tool, whatever its schema: its execute is only ever called with input runTool has parsed. */
export type AnyTool = ToolDef<any>;

/** Identity helper that keeps the schema's type attached to execute(). */
export function defineTool<S extends v.GenericSchema>(def: ToolDef<S>): ToolDef<S> {
  return def;
}

/** The subject of a call as the model sent it (not yet parsed); undefined when the input has none. Never throws. */
export function subjectOf(tool: Pick<AnyTool, "subject"> | undefined, input: unknown): string | undefined {
  if (!tool) return undefined;
  try {
    const subject: unknown = tool.subject.of(input);
    return typeof subject === "string" ? subject : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every path a call touches, for a tool that declares them (subject.paths); undefined for any
 * other tool, or when the input (not yet parsed) has none. Never throws.
 */
export function subjectPaths(tool: Pick<AnyTool, "subject"> | undefined, input: unknown): string[] | undefined {
  if (!tool?.subject.paths) return undefined;
  try {
    const paths: unknown = tool.subject.paths(input);
    return Array.isArray(paths) && paths.length > 0 && paths.every((p) => typeof p === "string") ? paths : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs a tool the way the loop does: parse the raw input once, execute, truncate.
 * Bad input and ToolError become a thrown ToolError with an instructive message;
 * the caller turns it into a tool error result. Never lets an unexpected exception escape
 * as anything but a ToolError.
 */
export async function runTool(tool: AnyTool, rawInput: unknown, ctx: ToolContext): Promise<ToolResult> {
  const input = parseInput(tool, rawInput);
  try {
    const result = await tool.execute(input, ctx);
    return { ...result, output: truncateOutput(result.output) };
  } catch (error) {
    throw asToolError(tool, error);
  }
}

/**
 * The error a call would end with before it changes anything: bad input, or what the tool's
 * precheck finds, worded as runTool words it. Undefined when the call can go ahead (or the tool
 * has no precheck). Changes nothing.
 */
export async function precheckTool(tool: AnyTool, rawInput: unknown, ctx: PreviewContext): Promise<ToolError | undefined> {
  try {
    const input = parseInput(tool, rawInput);
    await tool.precheck?.(input, ctx);
    return undefined;
  } catch (error) {
    return asToolError(tool, error);
  }
}

function parseInput(tool: AnyTool, rawInput: unknown): unknown {
  const parsed = v.safeParse<v.GenericSchema>(tool.schema, rawInput);
  if (parsed.success) return parsed.output;
  const problems = parsed.issues.map((issue) => issueText(issue)).join("; ");
  throw new ToolError(`${tool.name}: invalid arguments (${problems}). Check the tool's parameters and call it again.`);
}

function asToolError(tool: AnyTool, error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError(`${tool.name} failed: ${message}`);
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
