import { isAbsolute, resolve } from "node:path";
import { parsePatch } from "../tools/patch/parse.ts";

/** shiro's tools that have a Claude Code counterpart, and its name for them. */
const CLAUDE_NAMES: Readonly<Record<string, string>> = {
  bash: "Bash",
  read_file: "Read",
  write_file: "Write",
  edit_file: "Edit",
  multi_edit: "MultiEdit",
  glob: "Glob",
  grep: "Grep",
  web_fetch: "WebFetch",
  task: "Task",
};

/** One tool event as hooks see it. */
export type HookToolCall = {
  /** The name hooks get (`Bash`, `Edit`, … or shiro's own for tools Claude Code has not). */
  toolName: string;
  /** Every name a matcher may use for it: the one above and shiro's. */
  names: string[];
  /** The input in Claude Code's shape (absolute `file_path`, `old_string`, …). */
  input: Record<string, unknown>;
  /** Turns an `updatedInput` (Claude Code's shape) back into shiro's; absent when the call cannot take one. */
  toShiro?: (updated: Record<string, unknown>) => Record<string, unknown>;
};

type Input = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * The hook events one call makes. Most calls make one; apply_patch, move_file and delete_file make
 * one Write or Edit per file they touch, so a file guard on `Edit|Write` sees every file.
 */
export function hookToolCalls(tool: string, input: Input, workspace: string): HookToolCall[] {
  const abs = (path: unknown) => (typeof path === "string" ? (isAbsolute(path) ? path : resolve(workspace, path)) : path);
  const one = (claude: string, claudeInput: Input, toShiro?: HookToolCall["toShiro"]): HookToolCall[] => [
    { toolName: claude, names: [claude, tool], input: claudeInput, ...(toShiro ? { toShiro } : {}) },
  ];
  const fileEvent = (claude: "Write" | "Edit", path: string, extra: Input = {}): HookToolCall => ({
    toolName: claude,
    names: [claude, tool],
    input: { file_path: abs(path), ...extra },
  });
  switch (tool) {
    case "bash":
      return one("Bash", { command: input.command, ...(input.timeout !== undefined ? { timeout: input.timeout } : {}) }, (u) => ({ ...input, ...pick(u, { command: "command", timeout: "timeout" }) }));
    case "read_file":
      return one("Read", { file_path: abs(input.path), ...pick(input, { offset: "offset", limit: "limit" }) }, (u) => ({ ...input, ...pick(u, { file_path: "path", offset: "offset", limit: "limit" }) }));
    case "write_file":
      return one("Write", { file_path: abs(input.path), content: input.content }, (u) => ({ ...input, ...pick(u, { file_path: "path", content: "content" }) }));
    case "edit_file":
      return one("Edit", { file_path: abs(input.path), ...claudeEdit(input) }, (u) => ({ ...input, ...pick(u, { file_path: "path", old_string: "oldString", new_string: "newString", replace_all: "replaceAll" }) }));
    case "multi_edit":
      return one(
        "MultiEdit",
        { file_path: abs(input.path), edits: Array.isArray(input.edits) ? input.edits.map((e) => claudeEdit(e as Input)) : input.edits },
        (u) => ({
          ...input,
          ...pick(u, { file_path: "path" }),
          ...(Array.isArray(u.edits) ? { edits: u.edits.map((e) => pick(e as Input, { old_string: "oldString", new_string: "newString", replace_all: "replaceAll" })) } : {}),
        }),
      );
    case "glob":
      return one("Glob", pick(input, { pattern: "pattern", path: "path" }), (u) => ({ ...input, ...pick(u, { pattern: "pattern", path: "path" }) }));
    case "grep":
      return one("Grep", pick(input, { pattern: "pattern", path: "path", include: "glob" }), (u) => ({ ...input, ...pick(u, { pattern: "pattern", path: "path", glob: "include" }) }));
    case "web_fetch":
      return one("WebFetch", { url: input.url }, (u) => ({ ...input, ...pick(u, { url: "url" }) }));
    case "task":
      return one("Task", { ...pick(input, { description: "description", prompt: "prompt", kind: "subagent_type" }), ...(input.tasks ? { tasks: input.tasks } : {}) });
    case "move_file":
      return [fileEvent("Write", String(input.to), { moved_from: abs(input.from) }), fileEvent("Edit", String(input.from), { moved_to: abs(input.to) })];
    case "delete_file":
      return [fileEvent("Edit", String(input.path), { deleted: true })];
    case "apply_patch": {
      const parsed = parsePatch(str(input.input) ?? "");
      if (!parsed.ok) return [{ toolName: tool, names: [tool], input }];
      return parsed.ops.flatMap((op) => {
        if (op.type === "add") return [fileEvent("Write", op.path, { content: op.content })];
        if (op.type === "delete") return [fileEvent("Edit", op.path, { deleted: true })];
        const edit = fileEvent("Edit", op.path, { patch: str(input.input) });
        return op.moveTo === undefined ? [edit] : [edit, fileEvent("Write", op.moveTo, { moved_from: abs(op.path) })];
      });
    }
    default:
      return [{ toolName: tool, names: [tool], input, toShiro: (u) => u }];
  }
}

/** The name hooks see for a tool (its Claude Code name where it has one). */
export function hookToolName(tool: string): string {
  return CLAUDE_NAMES[tool] ?? tool;
}

function claudeEdit(edit: Input): Input {
  return pick(edit, { oldString: "old_string", newString: "new_string", replaceAll: "replace_all" });
}

/** The fields of `from` named in `names`, renamed; absent fields stay absent. */
function pick(from: Input, names: Record<string, string>): Input {
  const out: Input = {};
  for (const [name, as] of Object.entries(names)) if (from[name] !== undefined) out[as] = from[name];
  return out;
}

/**
 * A call's result as `tool_response`: shiro's result text as `output`, with the fields Claude
 * Code's scripts read most: `filePath` for file events, `stdout` (and an empty `stderr`: shiro
 * gives the model one stream) for Bash.
 */
export function hookToolResponse(call: HookToolCall, output: string, interrupted = false): Record<string, unknown> {
  if (call.toolName === "Bash") return { stdout: output, stderr: "", interrupted, output };
  if (typeof call.input.file_path === "string") return { filePath: call.input.file_path, success: true, output };
  return { output };
}
