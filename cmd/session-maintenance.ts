import type { ModelMessage } from "ai";
import { copyFileSync } from "node:fs";
import { configPath, loadConfigFile, loadSettings, shiroHome } from "../lib/config/load.ts";
import { DEFAULT_SANDBOX, DEFAULT_SANDBOX_NETWORK } from "../lib/config/defaults.ts";
import type { ConfigFile } from "../lib/config/schema.ts";
import { findProjectRoot } from "../lib/fs/project-root.ts";
import { findSecretsFiles, openCommands } from "../lib/sandbox/index.ts";
import type { Flags } from "../lib/config/resolve.ts";
import { ShiroError } from "../lib/errors.ts";
import { createNotebook } from "../lib/notebook/notebook.ts";
import { compactTranscript } from "../lib/prune/compact-summary.ts";
import { repairHistory } from "../lib/prune/repair.ts";
import { validateHistory } from "../lib/prune/validate.ts";
import { continueSession, findSession } from "../lib/sessions/find.ts";
import { acquireSession } from "../lib/sessions/ownership.ts";
import { sessionPath } from "../lib/sessions/paths.ts";
import type { SessionRecord } from "../lib/sessions/schema.ts";
import { saveSession } from "../lib/sessions/store.ts";
import { openUndoJournal } from "../lib/sessions/undo/journal.ts";
import { COMMON_FLAGS, flagsFrom, MODEL_FLAGS, parseFlags, type FlagTable } from "./args.ts";
import { commandHelp } from "./help.ts";
import { toolsFor } from "../lib/tools/index.ts";

type Env = Record<string, string | undefined>;

const DOCTOR_USAGE = "usage: shiro doctor [--write]   (checks the sandbox, shows the model's context window, checks the newest session in this directory)";

/** `shiro doctor`'s flags: the model flags say which model's window to show. */
export const DOCTOR_FLAGS = {
  write: { type: "boolean", description: "fix the problems found (a backup is kept)" },
  ...MODEL_FLAGS,
  ...COMMON_FLAGS,
} as const satisfies FlagTable;

/**
 * Runs `change` on a session only while no other shiro has it open: two processes never write
 * the same file.
 */
async function withSessionHeld<T>(home: string, record: SessionRecord, change: () => T | Promise<T>): Promise<T> {
  const held = acquireSession(home, record.id);
  if (!held.ok) throw new ShiroError("usage", `session ${record.id} is open in another shiro (pid ${held.holderPid}). Close it there first.`);
  try {
    return await change();
  } finally {
    held.release();
  }
}

/**
 * `shiro sessions compact <id>`: the model summarises the transcript (goal, files touched,
 * decisions, commands and outcomes, what remains) and the summary replaces it. The task list is
 * kept. A failed or unusable summary leaves the session exactly as it was.
 */
export async function compactSessionCommand(idOrPrefix: string, flags: Flags, env: Env): Promise<number> {
  const home = shiroHome(env);
  const record = findSession(home, idOrPrefix);
  const messages = record.messages as ModelMessage[];
  if (messages.length === 0) throw new ShiroError("usage", `session ${record.id} has no messages to compact.`);
  const { settings } = await loadSettings(flags, env);
  const { createModel } = await import("../lib/provider/model.ts");
  const { generate } = await import("../lib/agent/generate.ts");
  const { callOptions } = await import("../lib/provider/call-options.ts");
  const model = await createModel(settings);
  // Held for the whole exchange, so no other shiro changes the session while the model summarises it.
  return withSessionHeld(home, record, async () => {
    const current = findSession(home, record.id); // re-read under the lock: the latest version
    const messages = current.messages as ModelMessage[];
    const outcome = await compactTranscript(messages, (request) => generate({ model, settings, callOptions: callOptions(settings) }, request), { tools: toolsFor({ notebook: createNotebook() }) });
    if (outcome.type === "failed") throw new ShiroError("provider", `the summary request failed, so the session was left as it was: ${outcome.message}`);
    if (outcome.type === "unusable") throw new ShiroError("provider", "the model's summary was empty or unusable, so the session was left as it was.");
    const replacement = outcome.messages;
    saveSession(home, { ...current, messages: replacement, updatedAt: new Date().toISOString() });
    openUndoJournal(home, record.id).markCompact(); // undo stops here, as after /compact
    process.stdout.write(`Compacted session ${record.id}: ${messages.length} messages replaced by a summary.\n`);
    return 0;
  });
}

/**
 * `shiro sessions repair <id> [--write]` and `shiro doctor [--write]`: checks a saved session
 * against the history invariants the providers enforce, reports each problem, and with --write
 * fixes them atomically after keeping a backup. Exit 0 when healthy or fixed, 1 when problems remain.
 */
export async function repairSessionCommand(idOrPrefix: string | undefined, opts: { write: boolean; cwd: string }, env: Env): Promise<number> {
  const home = shiroHome(env);
  const record = idOrPrefix === undefined ? continueSession(home, opts.cwd) : findSession(home, idOrPrefix);
  const messages = record.messages as ModelMessage[];
  // A saved history keeps item references of models that need no reasoning item; those are valid.
  const problems = validateHistory(messages, { allowPendingCalls: true }).filter((p) => p.code !== "reference-without-reasoning");
  const path = sessionPath(home, record.id);
  if (problems.length === 0) {
    process.stdout.write(`Session ${record.id} is healthy: ${messages.length} messages, no broken tool calls or references.\n`);
    return 0;
  }
  process.stdout.write(`Session ${record.id} (${path}) has ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n`);
  for (const p of problems) process.stdout.write(`  message ${p.index}: ${p.message}\n`);
  if (!opts.write) {
    process.stdout.write(`Nothing was changed. Run again with --write to fix it (a backup is kept).\n`);
    return 1;
  }
  await withSessionHeld(home, record, () => {
    const backup = `${path}.bak-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    copyFileSync(path, backup);
    saveSession(home, { ...record, messages: repairHistory(messages), updatedAt: new Date().toISOString() });
    process.stdout.write(`Fixed. The previous file is kept at ${backup}\n`);
  });
  return 0;
}

/**
 * `shiro doctor [--write]`: says whether commands run in the sandbox here (and if not, why and
 * the command that installs it), the model's context window and where it came from (asking the
 * server as a session would, cache included), then repairSessionCommand on the newest session in
 * this directory, if there is one.
 */
export async function runDoctorCommand(argv: string[], env: Env): Promise<number> {
  const args = parseFlags(argv, DOCTOR_FLAGS, "shiro doctor");
  if (args.help) {
    process.stdout.write(commandHelp(DOCTOR_USAGE, DOCTOR_FLAGS));
    return 0;
  }
  const cwd = process.cwd();
  const home = shiroHome(env);
  process.stdout.write(sandboxReport(await loadConfigFile(configPath(home)), env, home, cwd));
  process.stdout.write((await windowReport(flagsFrom(args), env, cwd)).map((line) => line + "\n").join(""));
  if (!hasSessionHere(home, cwd)) {
    process.stdout.write(`No saved session for ${cwd} to check.\n`);
    return 0;
  }
  return repairSessionCommand(undefined, { write: args.write, cwd }, env);
}

/** The sandbox as `shiro doctor` reports it: on with what it shows and hides, off, or unavailable with the fix. */
function sandboxReport(config: ConfigFile, env: Env, home: string, cwd: string): string {
  const settings = { mode: config.sandbox ?? DEFAULT_SANDBOX, network: config.sandboxNetwork ?? DEFAULT_SANDBOX_NETWORK, writable: config.sandboxWritable ?? [], readable: config.sandboxReadable ?? [] };
  const root = findProjectRoot(cwd);
  const commands = openCommands({ settings, root, shiroHome: home, env, apiKey: undefined });
  const status = commands.status;
  const userHome = env.HOME;
  const short = (path: string) => (userHome && path.startsWith(userHome + "/") ? "~" + path.slice(userHome.length) : path);
  const list = (paths: readonly string[]) => (paths.length > 0 ? paths.map(short).join(", ") : "(none)");
  switch (status.state) {
    case "on":
      return [
        `sandbox: on (bubblewrap); commands shiro runs see the file system read-only except:`,
        `  writable: ${list(status.summary.writable)}, and a private /tmp`,
        `  kept read-only inside the workspace: ${list(status.summary.readOnly)}`,
        `  hidden:   ${list(status.summary.hidden)}`,
        `  masked:   ${list(findSecretsFiles(root))}`,
        `  network:  ${status.network ? "on" : "off"}`,
        "",
      ].join("\n");
    case "off":
      return `sandbox: off (config "sandbox": "off"); commands run directly on this machine, protected only by the guard and approvals.\n`;
    case "unavailable":
      return `sandbox: unavailable: ${status.why}.\n  to get it: ${status.fix}\n  until then commands run directly on this machine, protected only by the guard and approvals.\n`;
    default:
      return status satisfies never;
  }
}

function hasSessionHere(home: string, cwd: string): boolean {
  try {
    continueSession(home, cwd);
    return true;
  } catch (error) {
    if (error instanceof ShiroError && error.code === "usage") return false;
    return true; // a broken session: repairSessionCommand reports it
  }
}

/**
 * What the window is and how a request divides it, as the start of a session would find it. The
 * instructions are counted without the memory block (doctor reads no notes). Settings that do not
 * resolve (no key, a bad config) are reported in one line, and the session check still runs.
 */
async function windowReport(flags: Flags, env: Env, cwd: string): Promise<string[]> {
  const { loadRuntime } = await import("../lib/app/load-runtime.ts");
  const { requestBudget, smallWindowNotice, windowLabel, formatTokens } = await import("../lib/agent/context-budget.ts");
  const { buildInstructions } = await import("../lib/agent/instructions.ts");
  const { createMemoryStore } = await import("../lib/memory/store.ts");
  let runtime;
  try {
    runtime = await loadRuntime(flags, env, cwd);
  } catch (error) {
    if (error instanceof ShiroError) return [`Context window: not known, because the settings do not resolve: ${error.message}`];
    throw error;
  }
  const { settings } = runtime;
  const info = runtime.window.info;
  const tools = toolsFor({ notebook: createNotebook(), memory: createMemoryStore({ home: runtime.home, projectRoot: runtime.env.root }) });
  const instructions = buildInstructions({ env: runtime.env, projectDocs: runtime.projectDocs, memory: "" });
  const budget = requestBudget(info, { pruneAtTokens: settings.pruneAtTokens, instructions, tools });
  const lines = [
    `Model ${settings.model} at ${settings.baseURL}: ${windowLabel(info)}.`,
    `  A request keeps ${formatTokens(budget.answerTokens)} for the answer${budget.outputTokens !== undefined ? " (sent as its output limit)" : ""}, about ${formatTokens(budget.overheadTokens)} for the instructions and tools, and prunes the conversation past ${formatTokens(budget.conversationTokens)} estimated tokens.`,
  ];
  if (budget.tooSmall) lines.push(`  warning: ${smallWindowNotice(settings.model, info, budget)}`);
  return lines;
}
