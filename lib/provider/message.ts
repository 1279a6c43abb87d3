/**
 * The human part of a provider's error body: `error.message` (OpenAI's shape), a string `error`,
 * or a top-level `message`; otherwise the body itself. `undefined` for an empty body. Pure.
 */
export function providerMessage(body: unknown): string | undefined {
  if (typeof body !== "string" || !body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof parsed.error === "string") return parsed.error;
    if (parsed.error && typeof parsed.error.message === "string") return parsed.error.message;
    if (typeof parsed.message === "string") return parsed.message;
  } catch {}
  return body;
}
