import { configFileProblems, configPath, loadConfigFile, shiroHome } from "../lib/config/load.ts";
import { DEFAULT_SANDBOX, DEFAULT_SANDBOX_NETWORK } from "../lib/config/defaults.ts";
import { PRESETS, type PresetName } from "../lib/config/presets.ts";
import { lacksModel, sandboxFromEnv, traceSettings, type Flags } from "../lib/config/resolve.ts";
import type { ConfigFile } from "../lib/config/schema.ts";
import { planHooks } from "../lib/hooks/plan.ts";
import { endpointCheck, hookChecks, keyCheck, modelCheck, noModelCheck, ripgrepCheck, type Check, type Mark } from "../lib/app/doctor.ts";
import { ShiroError } from "../lib/errors.ts";
import { findProjectRoot } from "../lib/fs/project-root.ts";
import { createNotebook } from "../lib/notebook/notebook.ts";
import { listModels } from "../lib/provider/list-models.ts";
import { findHelper, findSecretsFiles, openCommands } from "../lib/sandbox/index.ts";
import { continueSession } from "../lib/sessions/find.ts";
import { listSessions } from "../lib/sessions/list.ts";
import { toolsFor } from "../lib/tools/index.ts";
import { COMMON_FLAGS, flagsFrom, MODEL_FLAGS, parseFlags, type FlagTable } from "./args.ts";
import { commandHelp } from "./help.ts";
import { repairSessionCommand } from "./session-maintenance.ts";

type Env = Record<string, string | undefined>;

const DOCTOR_USAGE =
  "usage: shiro doctor [--write]   (checks the key, the server, the model, the context window, ripgrep and the sandbox, then the newest session in this directory)";

/** `shiro doctor`'s flags: the model flags say which server and model to check. */
export const DOCTOR_FLAGS = {
  write: { type: "boolean", description: "fix the problems found in the session (a backup is kept)" },
  ...MODEL_FLAGS,
  ...COMMON_FLAGS,
} as const satisfies FlagTable;

/** How long the server may take to answer `GET /models`: a server that needs longer is reported as not answering. */
const LIST_TIMEOUT_MS = 5_000;

const MARK_WIDTH = 6;

/** One check as printed: the mark, the finding, and on the next line what to do when it is not ok. */
function checkLines(check: Check): string {
  const head = `${check.mark.padEnd(MARK_WIDTH)}${check.text}\n`;
  return check.fix ? head + `${" ".repeat(MARK_WIDTH)}→ ${check.fix}\n` : head;
}

/**
 * `shiro doctor [--write]`: checks the set-up (the key and where it came from, whether the server
 * answers, whether it offers the model, the context window, ripgrep, the sandbox), one marked line
 * each, then repairSessionCommand on the newest session in this directory if there is one. Exit 0
 * when nothing failed (warnings allowed) and the session is healthy or fixed; 1 otherwise.
 */
export async function runDoctorCommand(argv: string[], env: Env): Promise<number> {
  const args = parseFlags(argv, DOCTOR_FLAGS, "shiro doctor");
  if (args.help) {
    process.stdout.write(commandHelp(DOCTOR_USAGE, DOCTOR_FLAGS));
    return 0;
  }
  const cwd = process.cwd();
  const home = shiroHome(env);
  const marks: Mark[] = [];
  const say = (check: Check) => {
    marks.push(check.mark);
    process.stdout.write(checkLines(check));
  };
  let config: ConfigFile = {};
  // Every problem of the file, one failing line each, so one run shows all there is to fix.
  const problems = await configFileProblems(configPath(home));
  if (problems.length === 0) config = await loadConfigFile(configPath(home));
  // The message starts "config file <path>…"; under the check's own name it would say it twice.
  for (const problem of problems) say({ mark: "fail", text: `config file: ${problem.replace(/^config file /, "")}` });
  await setupChecks(flagsFrom(args), env, config, cwd, say);
  say(ripgrepCheck(findHelper("rg", { path: env.PATH, root: findProjectRoot(cwd) })));
  say(sandboxCheck(config, env, home, cwd));
  const root = findProjectRoot(cwd);
  for (const check of hookChecks(planHooks({ config, root, home }), root, env.PATH ?? "")) say(check);
  // MCP servers: listed with their state (loads the MCP client only when some are configured).
  process.stdout.write(await (await import("./mcp-doctor.ts")).mcpDoctorReport(config, home, cwd, env));
  // A damaged session file is left out of every listing, so the check below would pass over it: named here.
  for (const warning of listSessions(home, { cwd }).warnings) say({ mark: "warn", text: `sessions: ${warning}` });
  const failed = marks.includes("fail");
  if (!hasSessionHere(home, cwd)) {
    process.stdout.write(`${"ok".padEnd(MARK_WIDTH)}no saved session for ${cwd} to check\n`);
    return failed ? 1 : 0;
  }
  const session = await repairSessionCommand(undefined, { write: args.write, cwd }, env);
  return failed ? 1 : session;
}

/** The key, the server, the model and its window: everything that needs the settings to resolve. */
async function setupChecks(flags: Flags, env: Env, config: ConfigFile, cwd: string, say: (check: Check) => void): Promise<void> {
  let traced;
  try {
    traced = traceSettings(flags, env, config, { forRun: false });
  } catch (error) {
    if (!(error instanceof ShiroError)) throw error;
    return say({ mark: "fail", text: `settings: ${error.message}` });
  }
  const { settings, sources } = traced;
  const preset = PRESETS[settings.provider as PresetName];
  const key = keyCheck(settings, sources.apiKey, "keyEnv" in preset ? preset.keyEnv : undefined);
  say(key);
  if (key.mark === "fail") return; // a hosted server's list needs the key: asking without one only repeats the failure
  const listing = await listModels({ baseURL: settings.baseURL, ...(settings.apiKey ? { apiKey: settings.apiKey } : {}), timeoutMs: LIST_TIMEOUT_MS });
  say(endpointCheck(settings.baseURL, listing));
  // Not OpenAI's default, which a run never sends there; the window would only repeat the refusal.
  if (lacksModel(settings.provider, sources)) return say(noModelCheck(settings.provider, listing));
  const model = modelCheck(settings.model, listing);
  if (model) say(model);
  if (listing.type === "unreachable") return; // the window would only repeat the failure
  // For a model the server does not offer, the window is for information: it is not "ok".
  for (const check of await windowChecks(flags, env, cwd)) say(model?.mark === "fail" && check.mark === "ok" ? { ...check, mark: "info" } : check);
}

/** The sandbox: on (ok) with what it shows and hides, off on purpose (warn), or unavailable with the fix (warn). */
function sandboxCheck(config: ConfigFile, env: Env, home: string, cwd: string): Check {
  const fromEnv = envSandbox(env);
  const settings = { mode: fromEnv ?? config.sandbox ?? DEFAULT_SANDBOX, network: config.sandboxNetwork ?? DEFAULT_SANDBOX_NETWORK, writable: config.sandboxWritable ?? [], readable: config.sandboxReadable ?? [], hide: config.sandboxHide ?? [] };
  const root = findProjectRoot(cwd);
  const commands = openCommands({ settings, root, shiroHome: home, env, apiKey: undefined });
  const status = commands.status;
  const userHome = env.HOME;
  const short = (path: string) => (userHome && path.startsWith(userHome + "/") ? "~" + path.slice(userHome.length) : path);
  const list = (paths: readonly string[]) => (paths.length > 0 ? paths.map(short).join(", ") : "(none)");
  const indent = " ".repeat(MARK_WIDTH);
  switch (status.state) {
    case "on":
      return {
        mark: "ok",
        text: [
          `sandbox: on (bubblewrap); commands shiro runs see the file system read-only except:`,
          `${indent}  writable: ${list(status.summary.writable)}, and a private /tmp`,
          `${indent}  kept read-only inside the workspace: ${list(status.summary.readOnly)}`,
          `${indent}  hidden:   ${list(status.summary.hidden)}`,
          `${indent}  masked:   ${list(findSecretsFiles(root))}`,
          `${indent}  network:  ${status.network ? "on" : "off"}`,
        ].join("\n"),
      };
    case "off":
      return fromEnv
        ? { mark: "warn", text: "sandbox: off (SHIRO_SANDBOX=off); commands run directly on this machine, protected only by the guard and approvals", fix: "unset SHIRO_SANDBOX" }
        : { mark: "warn", text: `sandbox: off (config "sandbox": "off"); commands run directly on this machine, protected only by the guard and approvals`, fix: "shiro config set sandbox on" };
    case "unavailable":
      return { mark: "warn", text: `sandbox: unavailable: ${status.why}; until then commands run directly on this machine, protected only by the guard and approvals`, fix: status.fix };
    default:
      return status satisfies never;
  }
}

/** SHIRO_SANDBOX when it is valid; a bad value is already the settings check's failure. */
function envSandbox(env: Env): "on" | "off" | undefined {
  try {
    return sandboxFromEnv(env);
  } catch {
    return undefined;
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
 * instructions are counted without the memory block (doctor reads no notes). A window too small
 * to work in is a warning.
 */
async function windowChecks(flags: Flags, env: Env, cwd: string): Promise<Check[]> {
  const { loadRuntime } = await import("../lib/app/load-runtime.ts");
  const { requestBudget, smallWindowNotice, formatTokens } = await import("../lib/agent/context-budget.ts");
  const { buildInstructions } = await import("../lib/agent/instructions.ts");
  const { createMemoryStore } = await import("../lib/memory/store.ts");
  let runtime;
  try {
    runtime = await loadRuntime(flags, env, cwd);
  } catch (error) {
    if (error instanceof ShiroError) return [{ mark: "fail", text: `context window: not known, because the settings do not resolve: ${error.message}` }];
    throw error;
  }
  const { settings } = runtime;
  const info = runtime.window.info;
  const tools = toolsFor({ notebook: createNotebook(), memory: createMemoryStore({ home: runtime.home, projectRoot: runtime.workspace.root }) });
  const instructions = buildInstructions({ env: runtime.workspace, projectDocs: runtime.projectDocs, memory: "" });
  const budget = requestBudget(info, { pruneAtTokens: settings.pruneAtTokens, instructions, tools });
  const text = [
    `context window: ${formatTokens(info.tokens)} tokens for ${settings.model} at ${settings.baseURL} (${info.from}).`,
    `${" ".repeat(MARK_WIDTH)}  A request keeps ${formatTokens(budget.answerTokens)} for the answer${budget.outputTokens !== undefined ? " (sent as its output limit)" : ""}, about ${formatTokens(budget.overheadTokens)} for the instructions and tools, and prunes the conversation past ${formatTokens(budget.conversationTokens)} estimated tokens.`,
  ].join("\n");
  if (!budget.tooSmall) return [{ mark: "ok", text }];
  return [{ mark: "warn", text, fix: smallWindowNotice(settings.model, info, budget) }];
}
