import type { Runtime } from "../lib/agent/runtime.ts";
import { planHooks, trustProjectHooks } from "../lib/hooks/plan.ts";
import { askYesNo } from "./mcp-start.ts";

/**
 * The loop's question about a project's hooks (`.shiro/settings.json`), asked before the loop takes
 * the terminal, once per content of the file and the scripts it names: each command is shown.
 * Returns a notice when the answer could not be remembered.
 */
export async function askHooksTrust(runtime: Runtime, opts: { disabled: boolean; trustProject: boolean }, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string | undefined> {
  if (opts.disabled || opts.trustProject) return undefined;
  const { question } = planHooks({ config: runtime.config, root: runtime.workspace.root, home: runtime.home });
  if (!question) return undefined;
  const yes = await askYesNo(
    [
      `This project has ${question.path}, with hooks that shiro would run at points of its loop:`,
      ...question.commands.map((command) => `  ${command}`),
      "They would run on this machine with your permissions, outside the sandbox, and can allow or block what the model does.",
    ],
    "Trust these hooks? (remembered until the file or a script it names changes) [y/N] ",
    input,
    output,
  );
  if (!yes) return undefined;
  try {
    trustProjectHooks(runtime.home, runtime.workspace.root, question.fingerprint);
    return undefined;
  } catch (error) {
    return `could not remember the answer about the project's hooks (${error instanceof Error ? error.message : String(error)}); they do not run now, and shiro asks again next time.`;
  }
}
