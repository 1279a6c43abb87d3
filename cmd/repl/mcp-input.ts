import { attachAll, resourceMentions } from "../../lib/app/mcp-attach.ts";
import { mcpPromptCommands, mcpPromptTurn } from "../../lib/app/mcp-prompt-run.ts";
import type { McpManager } from "../../lib/mcp/index.ts";
import { describeAttachment } from "../../lib/prompt/attach.ts";
import { attachImagesFor } from "../../lib/prompt/attach-image.ts";
import type { CompleteOptions } from "../../lib/prompt/complete.ts";
import { startSpinner, type LoopState } from "./loop-state.ts";
import type { Theme } from "./theme.ts";

/**
 * What the loop's prompt gets from the MCP servers: Tab completes `/mcp__<server>__<prompt>`
 * (the list `/` opens shows each prompt's description) and `@server:uri` (the server names, then
 * the URIs the server listed); a prompt's `@server:uri` mentions are read and attached; a line
 * naming a server's prompt runs it. Servers connect in the background, so each is read when used.
 */
export function withMcpCompletion(base: CompleteOptions, mcp: () => McpManager | undefined): CompleteOptions {
  const prompts = () => mcpPromptCommands(mcp());
  return {
    ...base,
    get commands() {
      return [...(base.commands ?? []), ...prompts().map((p) => p.name)];
    },
    get descriptions() {
      return { ...base.descriptions, ...Object.fromEntries(prompts().map((p) => [p.name, p.description])) };
    },
    resources: () => mcp()?.resourceUris() ?? [],
  };
}

type LoopDeps = { state: LoopState; rich: boolean; render: () => void; print: (text: string) => void; theme: Theme; where: { root: string; cwd: string }; mcp: () => McpManager | undefined; images: () => { home: string; workspace: { userHome: string } } };

/** Runs `work` as the loop's command (its spinner; esc stops it), for what waits on a server. */
async function asCommand<T>(deps: LoopDeps, label: string, work: (signal: AbortSignal) => Promise<T>): Promise<{ done: T } | undefined> {
  const command = (deps.state.command = new AbortController());
  startSpinner(deps.state, deps.rich, deps.render, label);
  try {
    const done = await work(command.signal);
    return command.signal.aborted ? undefined : { done };
  } finally {
    clearInterval(deps.state.spinner);
    deps.state.command = undefined;
    deps.state.activity = undefined;
  }
}

/**
 * The prompt with its files and resources attached, a line on screen for each; undefined when esc
 * stopped the reading. `typed`: the part the user typed, when not all of it (a custom command's arguments).
 */
export function createLoopAttacher(deps: LoopDeps): (prompt: string, typed?: string) => Promise<string | undefined> {
  return async (prompt, typed) => {
    const mcp = deps.mcp();
    // Only a prompt naming a server's resource waits (and can be stopped); files are read at once.
    const { home, workspace } = deps.images();
    const images = attachImagesFor(home, workspace.userHome);
    const attach = (signal: AbortSignal) => attachAll(prompt, deps.where, mcp, { signal, images, ...(typed !== undefined ? { typed } : {}) });
    const reading = resourceMentions(prompt, mcp?.names ?? []).length > 0;
    const attached = reading ? (await asCommand(deps, "reading attachments", attach))?.done : await attach(new AbortController().signal);
    for (const report of attached?.reports ?? []) deps.print((report.kind === "refused" ? deps.theme.warn : deps.theme.dim)(`  ${describeAttachment(report)}`));
    return attached?.text;
  };
}

/**
 * `/mcp__<server>__<prompt> args…`: true when the line named a server's prompt (it ran, or its
 * one line said why not); false when it is something else.
 */
export function createLoopMcpPrompts(deps: LoopDeps & { send: (prompt: string, typed: string) => Promise<unknown>; named: (text: string) => void }): (line: string) => Promise<boolean> {
  return async (line) => {
    if (!/^\/mcp__/i.test(line.trim())) return false;
    const ran = await asCommand(deps, "asking the MCP server for its prompt", (signal) => mcpPromptTurn(line, deps.mcp(), signal));
    if (ran === undefined) return true; // esc: said by the key
    const turn = ran.done;
    if (turn === undefined) return false;
    if ("error" in turn) return deps.print(deps.theme.warn(turn.error)), true;
    deps.print(deps.theme.dim(`  ${turn.command} from the MCP server "${turn.server}"`));
    for (const report of turn.reports) deps.print(deps.theme.dim(`  ${describeAttachment(report)}`));
    deps.named(line);
    await deps.send(turn.text, line);
    return true;
  };
}
