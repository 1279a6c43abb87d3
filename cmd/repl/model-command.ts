import { formatTokens, windowLabel } from "../../lib/agent/context-budget.ts";
import { similarIds } from "../../lib/app/doctor.ts";
import type { ListedModel, ModelListing } from "../../lib/provider/list-models.ts";
import type { CommandEnv } from "./commands.ts";

/** A model's row in the picker: its id, its window when the server states one, and whether it is the one in use. */
function modelLabel(model: ListedModel, width: number, current: string): string {
  const window = model.contextWindow !== undefined ? `window ${formatTokens(model.contextWindow)} tokens` : "";
  return [model.id.padEnd(width), window, model.id === current ? "(current)" : ""].filter(Boolean).join("  ").trimEnd();
}

/** Why there is no list to pick from, in a few words. */
function noList(listing: ModelListing): string {
  if (listing.type === "list") return "the server lists no models";
  return `the server has no model list (${listing.why})`;
}

/**
 * `/model`: with no id, a picker of the server's models (`GET /models`), the current one
 * selected; without a list from the server, one line saying so. With an id, the id is checked
 * against the list when there is one: an id not on it is switched to all the same, with a
 * warning (a server may accept names it does not list: aliases, tags, routes), and the first
 * request says for sure. The model applies from the next prompt; the status line shows it.
 */
export async function modelCommand(id: string, env: CommandEnv): Promise<void> {
  const { session, theme } = env;
  const { settings } = session.runtime();
  if (/\s/.test(id)) return env.print(theme.warn("usage: /model [id], e.g. /model gpt-5-mini (no id: pick from the server's list)"));
  const listing = await session.listModels(env.signal);
  if (env.signal.aborted) return;
  const models = listing.type === "list" ? [...listing.models].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) : [];
  if (!id) {
    if (models.length === 0) return env.print(`model: ${settings.model} (${settings.provider}, ${settings.baseURL}) · ${noList(listing)}; /model <id> switches`);
    const width = Math.max(...models.map((m) => m.id.length));
    const options = models.map((m) => ({ id: m.id, label: modelLabel(m, width, settings.model) }));
    if (!env.pick) {
      const rows = options.map((o) => `  ${o.id === settings.model ? "›" : " "} ${o.label}`);
      return env.print([`model: ${settings.model} · ${models.length} offered by ${settings.baseURL}:`, ...rows, theme.dim("/model <id> switches")].join("\n"));
    }
    const picked = await env.pick({
      title: `Switch to which model? (${models.length} from ${settings.baseURL})`,
      options,
      hint: "up/down choose · enter switches from the next prompt · esc keeps the current one",
      selected: Math.max(0, models.findIndex((m) => m.id === settings.model)),
    });
    if (picked === undefined || picked === settings.model) return env.print(theme.dim(`Kept ${settings.model}.`));
    return switchTo(picked, env);
  }
  if (models.length > 0 && !models.some((m) => m.id === id)) {
    const like = similarIds(id, models.map((m) => m.id));
    const hint = like.length > 0 ? ` (did you mean ${like.join(", ")}?)` : "; /model lists them";
    env.print(theme.warn(`${id} is not one of the ${models.length} models ${settings.baseURL} lists${hint}. Switched anyway: the next request will tell whether the server takes it.`));
  }
  return switchTo(id, env);
}

async function switchTo(id: string, env: CommandEnv): Promise<void> {
  const warning = await env.session.switchModel(id);
  env.print(`model: ${id} from the next prompt on; ${windowLabel(env.session.runtime().window.info)}.`);
  if (warning) env.print(env.theme.warn(warning));
}
