import type { Settings } from "../config/resolve.ts";
import { isLocalURL, keyVariables, lacksApiVersion } from "../config/presets.ts";
import type { ProviderFailure } from "./provider-error.ts";

/** What a failure's advice needs to know about where the request went. */
export type FailureContext = Pick<Settings, "baseURL" | "api" | "apiKeySource" | "provider" | "client">;

/** Bun's own advice in fetch errors, which means nothing to a user of shiro. */
const BUN_ADVICE = /\s*(For more information, pass `verbose: true` in the second argument to fetch\(\)\.?|For more information, pass `verbose: true`[^.]*\.|Is the computer able to access the url\?)/g;
const REFUSED = /ECONNREFUSED|ConnectionRefused|Unable to connect/i;

/**
 * The failure with the next step a user needs: a refused connection names the URL (and is not
 * retried when the server is on this machine: nobody is listening, waiting will not change that);
 * a 401/403 names where the key came from; a 404 from a base URL without a version (no `/v1`)
 * suggests adding one, and otherwise on the Responses wire suggests `--api chat`.
 * Never changes whether a failure is retryable otherwise.
 */
export function withNextStep(failure: ProviderFailure, ctx: FailureContext): ProviderFailure {
  const message = failure.message.replace(BUN_ADVICE, "").trim();
  if (failure.status === undefined && REFUSED.test(message)) {
    const local = isLocalURL(ctx.baseURL);
    return {
      ...failure,
      message: `could not connect to ${ctx.baseURL} (connection refused): ${local ? "is the server running? Start it, or point --base-url at the right port" : "check --base-url and the network"}`,
      retryable: failure.retryable && !local,
    };
  }
  if (failure.status === 401 || failure.status === 403) {
    const from = ctx.apiKeySource ? `the key came from ${ctx.apiKeySource}` : `no key was set (${keyVariables(ctx.provider, ctx.client)}, or "apiKey" in the config file)`;
    return { ...failure, message: `${message}; ${from}: check it is right for ${ctx.baseURL}` };
  }
  if (failure.status === 404 && lacksApiVersion(ctx.baseURL)) {
    return { ...failure, message: `${message}; the base URL ${ctx.baseURL} has no version in its path, where most servers serve their API: try --base-url ${ctx.baseURL}/v1` };
  }
  if (failure.status === 404 && ctx.api === "responses") {
    return { ...failure, message: `${message}; if this server only speaks Chat Completions, run with --api chat (or "api": "chat" in the config)` };
  }
  return message === failure.message ? failure : { ...failure, message };
}
