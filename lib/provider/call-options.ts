import type { Settings } from "../config/resolve.ts";

/** What every model call carries besides its messages: spread into `streamText` and `generateText`. */
export type CallOptions = {
  providerOptions?: Record<string, Record<string, string | boolean | string[]>>;
  /** `max_tokens` / `max_output_tokens`: set only when the config gives the model a `maxOutputTokens`, fitted into its window. */
  maxOutputTokens?: number;
};

/**
 * The one place a request's options are built from the settings (the turn's steps and every
 * call outside a turn read it, through Runtime.callOptions). A new provider option is a setting
 * (lib/config) plus a line here.
 *
 * Responses wire: `store` as the settings say, so a stateless server is never sent references to
 * items it did not keep; for OpenAI's reasoning models, a reasoning summary to show, and with
 * `store: false` their encrypted reasoning, so it can go back inline. Chat wire: nothing extra.
 * Both: the output limit, when `maxOutputTokens` is given (ContextWindowInfo.requestOutputTokens,
 * already fitted into the window; the turn lowers it if the window turns out smaller).
 */
export function callOptions(settings: Pick<Settings, "api" | "client" | "store" | "model">, maxOutputTokens?: number): CallOptions {
  const limit = maxOutputTokens !== undefined ? { maxOutputTokens } : {};
  if (settings.api !== "responses") return limit;
  const openai: Record<string, string | boolean | string[]> = { store: settings.store };
  if (settings.client === "openai" && isOpenAIReasoningModel(settings.model)) {
    openai.reasoningSummary = "auto";
    if (!settings.store) openai.include = ["reasoning.encrypted_content"];
  }
  return { providerOptions: { openai }, ...limit };
}

/** OpenAI's models that reason: the o-series, gpt-5 and later (not the -chat variants), codex. */
export function isOpenAIReasoningModel(model: string): boolean {
  const id = model.toLowerCase().replace(/^openai\//, "");
  if (/^o\d/.test(id) || /codex/.test(id)) return true;
  const gpt = /^gpt-(\d+)/.exec(id);
  return gpt !== null && Number(gpt[1]) >= 5 && !/-chat/.test(id);
}
