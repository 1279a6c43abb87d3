/**
 * The set-up checks behind `shiro doctor`, as pure functions of what was found: the settings and
 * where they came from, the server's answer to `GET /models`, whether ripgrep is on PATH. Each
 * check is one line with a mark and, when it is not ok, what to do about it. cmd/doctor.ts
 * gathers the facts and prints the lines.
 */
import { isLocalURL, lacksApiVersion } from "../config/presets.ts";
import type { SettingSource, Settings } from "../config/resolve.ts";
import type { ModelListing } from "../provider/list-models.ts";
import type { HookPlan } from "../hooks/plan.ts";
import { checkHookProgram } from "../hooks/program.ts";

/**
 * ok: nothing to do. warn: shiro works, less well or less safely. fail: shiro cannot work like
 * this. info: a finding that is neither, such as the window of a model that failed its own check.
 */
export type Mark = "ok" | "warn" | "fail" | "info";

export type Check = { mark: Mark; text: string; fix?: string };

/** Where the key came from, in the words of `shiro config`. */
function keyOrigin(source: SettingSource | undefined): string {
  if (source?.kind === "env") return `from ${source.name}`;
  if (source?.kind === "file") return 'from the config file\'s "apiKey"';
  return "";
}

/** A key is needed for any server not on this machine; a local one needs none. */
export function keyCheck(settings: Pick<Settings, "apiKey" | "baseURL" | "provider">, source: SettingSource | undefined, keyEnv: string | undefined): Check {
  if (settings.apiKey) return { mark: "ok", text: `API key: set (${keyOrigin(source)})` };
  if (isLocalURL(settings.baseURL)) return { mark: "ok", text: `API key: none, and none needed for a server on this machine (${settings.baseURL})` };
  const variable = keyEnv ?? "SHIRO_API_KEY";
  return {
    mark: "fail",
    text: `API key: none for ${settings.baseURL}`,
    fix: `export ${variable}=… (or SHIRO_API_KEY), or shiro config set apiKey …, or point --base-url at a local server`,
  };
}

/** Whether the server answers at all. A server with no model list still answers (and is ok). */
export function endpointCheck(baseURL: string, listing: ModelListing): Check {
  switch (listing.type) {
    case "list":
      return { mark: "ok", text: `server: ${baseURL} answers (${listing.models.length} model${listing.models.length === 1 ? "" : "s"} listed)` };
    case "no-list":
      if (listing.status === 401 || listing.status === 403) return { mark: "fail", text: `server: ${listing.why}`, fix: "check the key is the right one for this server (shiro config shows where it came from)" };
      if (listing.status === 404 && lacksApiVersion(baseURL)) {
        return { mark: "warn", text: `server: ${baseURL} answers, but has no model list (${listing.why}) and no version in its path`, fix: `most servers serve their API under /v1: if prompts get HTTP 404, use --base-url ${baseURL}/v1` };
      }
      return { mark: "ok", text: `server: ${baseURL} answers (no model list: ${listing.why})` };
    case "unreachable":
      return { mark: "fail", text: `server: ${listing.why}`, fix: isLocalURL(baseURL) ? "start the server, or point --base-url (or config \"baseURL\") at the one that runs" : "check --base-url (or config \"baseURL\") and the network" };
    default:
      return listing satisfies never;
  }
}

/** Whether the server offers the model, when it lists its models; ids that look alike are offered instead. */
export function modelCheck(model: string, listing: ModelListing): Check | undefined {
  if (listing.type !== "list") return listing.type === "no-list" && listing.status !== 401 && listing.status !== 403 ? { mark: "ok", text: `model ${model}: the server does not list its models, so it is not checked` } : undefined;
  if (listing.models.some((m) => m.id === model)) return { mark: "ok", text: `model ${model}: offered by the server` };
  if (listing.models.length === 0) {
    return { mark: "fail", text: `model ${model}: the server lists no models at all`, fix: "load or download one on the server first (ollama pull <model>, or load it in LM Studio), then run with -m <id>" };
  }
  const like = similarIds(model, listing.models.map((m) => m.id));
  const offered = like.length > 0 ? like : listing.models.slice(0, 5).map((m) => m.id);
  return {
    mark: "fail",
    text: `model ${model}: not in the server's list of ${listing.models.length}`,
    fix: `use one it offers${offered.length > 0 ? ` (${offered.join(", ")}${like.length === 0 && listing.models.length > offered.length ? ", …" : ""})` : ""}: -m <id>, or shiro config set model <id>; /model in a session lists them all`,
  };
}

/**
 * No model chosen for a provider with no default (a run would refuse to start): the ids the
 * server offers to choose from, when it lists them.
 */
export function noModelCheck(provider: string, listing: ModelListing): Check {
  const ids = listing.type === "list" ? listing.models.map((m) => m.id) : [];
  if (listing.type === "list" && ids.length === 0) {
    return { mark: "fail", text: `model: none chosen, ${provider} has no default one, and the server lists no models at all`, fix: "load or download one on the server first (ollama pull <model>, or load it in LM Studio), then run with -m <id>" };
  }
  const offered = ids.length > 0 ? ` it offers (${ids.slice(0, 5).join(", ")}${ids.length > 5 ? ", …" : ""})` : " (the server's own id)";
  return { mark: "fail", text: `model: none chosen, and ${provider} has no default one`, fix: `choose one${offered}: -m <id>, SHIRO_MODEL, or shiro config set model <id>` };
}

/**
 * The ids that begin most like the model (the longest shared start, at least 3 characters):
 * `gpt-5-mini` for `gpt-5-mega`, `qwen2.5-7b` for `qwen2.5`. At most five.
 */
export function similarIds(model: string, ids: readonly string[]): string[] {
  const wanted = model.toLowerCase();
  const shared = (id: string) => {
    const lower = id.toLowerCase();
    let n = 0;
    while (n < lower.length && lower[n] === wanted[n]) n++;
    return n;
  };
  const best = Math.max(0, ...ids.map(shared));
  return best < 3 ? [] : ids.filter((id) => shared(id) === best).slice(0, 5);
}

/** ripgrep makes the grep tool fast and gitignore-aware; without it a slower built-in search is used. */
export function ripgrepCheck(found: string | undefined): Check {
  if (found) return { mark: "ok", text: `ripgrep: ${found}` };
  return { mark: "warn", text: "ripgrep: not on PATH; the grep tool falls back to a slower built-in search", fix: "install ripgrep (apt install ripgrep, brew install ripgrep, …)" };
}

/**
 * The hooks that would run here: for each, whether its program exists and may be run; a project's
 * untrusted hooks file and the configuration's own problems too. Nothing when none are configured.
 */
export function hookChecks(plan: HookPlan, projectDir: string, path: string): Check[] {
  const checks: Check[] = [];
  for (const error of plan.errors) checks.push({ mark: "fail", text: `hooks: ${error}`, fix: "fix the matcher (shiro help hooks)" });
  for (const notice of plan.notices) checks.push({ mark: "warn", text: notice });
  for (const command of [...plan.table.values()].flat()) {
    const found = checkHookProgram(command.command, projectDir, path);
    const what = `hook ${command.event}${command.matcher ? ` [${command.matcher}]` : ""} (${command.origin}): ${command.command}`;
    checks.push(found.problem ? { mark: "warn", text: `${what}: ${found.problem}`, fix: "install the program, fix the path, or make the script executable" } : { mark: "ok", text: what });
  }
  if (plan.question) checks.push({ mark: "info", text: `hooks in ${plan.question.path} are not trusted yet, so they do not run`, fix: "start shiro here and answer its question, or pass --trust-project-hooks" });
  return checks;
}
