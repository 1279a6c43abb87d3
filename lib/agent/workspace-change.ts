import { memoByIdentity } from "../prune/memo.ts";
import { subjectOf, type AnyTool } from "../tools/define.ts";

/**
 * Whether a call changes the workspace, so that its step is saved at once (LiveSessionOptions
 * changesWorkspace): a tool that mutates, and one that starts subagents (the task tool: a worker subagent's edits are the
 * parent step's changes), but not a command that only reads (`ls`, `git status`), which changes
 * no more than a read_file call. A command line the check cannot judge counts as a change.
 */
export function changesWorkspace(tools: () => readonly AnyTool[], onlyReads: (command: string) => boolean): (toolName: string, input: unknown) => boolean {
  return (name, input) => {
    const tool = byName(tools()).get(name);
    if (tool?.startsSubagents === true) return true;
    if (tool?.mutates !== true) return false;
    const command = tool.subject.kind === "command" ? subjectOf(tool, input) : undefined;
    if (command === undefined) return true;
    try {
      return !onlyReads(command);
    } catch {
      return true;
    }
  };
}

const byName = memoByIdentity((tools: readonly AnyTool[]) => new Map(tools.map((t) => [t.name, t])));
