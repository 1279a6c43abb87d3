import type { ConfigFile } from "../config/schema.ts";
import { trustStore } from "../fs/trust-store.ts";
import { readProjectHooks } from "./project-file.ts";
import { buildHookTable, type BuiltHooks, type HookSource } from "./table.ts";

export type HookPlanOptions = {
  config: ConfigFile;
  /** The workspace root, where `.shiro/settings.json` is looked for. */
  root: string;
  /** $SHIRO_HOME, where the trusted project files are remembered. */
  home: string;
  /** `--no-hooks`. */
  disabled?: boolean;
  /** `--trust-project-hooks`. */
  trustProject?: boolean;
};

/** The project file's hooks, waiting for the user to trust them. */
export type ProjectHooksQuestion = { path: string; commands: string[]; fingerprint: string };

export type HookPlan = BuiltHooks & {
  /** Set when the project has hooks the user has not trusted (in this exact form). */
  question?: ProjectHooksQuestion;
};

const store = (home: string) => trustStore(home, "hooks-trust.json", ".shiro/settings.json");

/**
 * Which hooks run in this session: the user config's, and a project's `.shiro/settings.json` when
 * the user trusted that exact file (and the workspace scripts it names), or said so with
 * `--trust-project-hooks` / `trustProjectHooks`. `--no-hooks` and `disableAllHooks` turn all off.
 */
export function planHooks(opts: HookPlanOptions): HookPlan {
  if (opts.disabled || opts.config.disableAllHooks === true) return { table: new Map(), notices: [], errors: [] };
  const sources: HookSource[] = opts.config.hooks ? [{ origin: "user config", hooks: opts.config.hooks }] : [];
  const notices: string[] = [];
  let question: ProjectHooksQuestion | undefined;
  const project = readProjectHooks(opts.root);
  if (project.status === "invalid") notices.push(`${project.path} is not valid (${project.reason}); its hooks do not run. Fix the file, or see shiro help hooks.`);
  if (project.status === "found" && project.commands.length > 0) {
    const trust = opts.trustProject || opts.config.trustProjectHooks === true ? { trusted: true } : store(opts.home).isTrusted(opts.root, project.fingerprint);
    if (trust.notice) notices.push(trust.notice);
    if (trust.trusted) sources.push({ origin: project.path, hooks: project.hooks });
    else question = { path: project.path, commands: project.commands, fingerprint: project.fingerprint };
  }
  const built = buildHookTable(sources);
  return { ...built, notices: [...notices, ...built.notices], ...(question ? { question } : {}) };
}

/** Remembers that the user trusts this project's hooks file as it is now. */
export function trustProjectHooks(home: string, root: string, fingerprint: string): void {
  store(home).trust(root, fingerprint);
}

/** What a headless run says about project hooks it does not run. */
export function untrustedHooksNotice(question: ProjectHooksQuestion): string {
  return `${question.path} has hooks you have not trusted, so they do not run: ${question.commands.map((c) => JSON.stringify(c)).join(", ")}. Trust them in the interactive loop, or pass --trust-project-hooks.`;
}
