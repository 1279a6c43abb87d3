import type { AgentEvent, TurnStatus } from "../lib/events.ts";
import { ShiroError } from "../lib/errors.ts";
import { eventLine } from "../lib/render.ts";
import { loadRuntime } from "../lib/agent/runtime.ts";
import { startConversation } from "../lib/agent/start.ts";
import type { Approver } from "../lib/agent/sdk-tools.ts";
import { renderTodos } from "../lib/notebook/render.ts";
import type { MainArgs } from "./args.ts";

const EXIT_BY_STATUS: Record<TurnStatus, number> = { success: 0, error: 1, "step-cap": 3, interrupted: 130 };

/** Reads piped stdin; never waits on a keyboard. */
async function readPipedStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  return (await Bun.stdin.text()).trim();
}

/** `shiro -p`: one turn, no questions asked, events to stdout/stderr, exit code from the outcome. */
export async function runHeadless(args: MainArgs, processEnv: Record<string, string | undefined>): Promise<number> {
  const piped = await readPipedStdin();
  const argPrompt = [args.prompt ?? "", ...(args.promptGiven ? args.positional : [])].join(" ").trim();
  const prompt = [argPrompt, piped].filter(Boolean).join("\n\n");
  if (!prompt) throw new ShiroError("usage", 'no prompt: pass one with -p "…" or pipe text on stdin.');

  const cwd = process.cwd();
  const runtime = await loadRuntime(
    { model: args.model, baseURL: args.baseURL, api: args.api, provider: args.provider, maxSteps: args.maxSteps },
    processEnv,
    cwd,
  );

  const denied: { tool: string; subject?: string; reason: string }[] = [];
  let finalText = "";
  let textEndsWithNewline = true;
  const emit = (event: AgentEvent) => {
    if (event.type === "tool-denied") denied.push({ tool: event.tool, ...(event.subject ? { subject: event.subject } : {}), reason: event.reason });
    if (event.type === "text") finalText += event.text;
    if (event.type === "tool-call") finalText = ""; // the answer is what the model says after its last tool call
    if (args.json) {
      if (event.type !== "step") process.stdout.write(JSON.stringify(event) + "\n");
      return;
    }
    if (event.type === "text") {
      process.stdout.write(event.text);
      textEndsWithNewline = event.text.endsWith("\n");
      return;
    }
    const line = eventLine(event);
    if (!line) return;
    // Keep a terminal showing both streams readable: end the answer's current line first.
    if (!textEndsWithNewline) {
      process.stdout.write("\n");
      textEndsWithNewline = true;
    }
    process.stderr.write(line + "\n");
  };

  const approve: Approver = async ({ tool }) => {
    if (!tool.mutates || args.yolo) return { allow: true };
    return {
      allow: false,
      reason: `${tool.name} changes files or runs commands, and shiro is running headless without --yolo. Do not retry it; explain what you would do instead.`,
    };
  };

  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  const { conversation, notices } = await startConversation({ runtime, memory: args.memory, retryBaseMs: retryBaseFromEnv(processEnv) });
  for (const message of notices) emit({ type: "notice", message });
  const stopWatchingTodos = conversation.notebook.onChange((todos) => {
    if (args.json) return; // the JSON stream carries the list in the result record
    if (!textEndsWithNewline) {
      process.stdout.write("\n");
      textEndsWithNewline = true;
    }
    process.stderr.write((renderTodos(todos) || "tasks: (cleared)") + "\n");
  });
  const result = await conversation.runPrompt(prompt, { emit, approve, signal: controller.signal });
  stopWatchingTodos();
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);

  const exitCode = EXIT_BY_STATUS[result.status];
  if (args.json) {
    const record = {
      type: "result",
      status: result.status,
      exitCode,
      sessionId: null,
      steps: result.steps,
      usage: result.usage,
      costUsd: null,
      text: finalText,
      error: result.error ?? null,
      denied,
      todos: conversation.notebook.todos(),
    };
    process.stdout.write(JSON.stringify(record) + "\n");
  } else if (!textEndsWithNewline) {
    process.stdout.write("\n");
  }
  return exitCode;
}

/** Tests shorten the retry backoff; users never need to. */
function retryBaseFromEnv(env: Record<string, string | undefined>): number | undefined {
  const value = Number(env.SHIRO_RETRY_BASE_MS);
  return env.SHIRO_RETRY_BASE_MS && Number.isFinite(value) && value >= 0 ? value : undefined;
}
