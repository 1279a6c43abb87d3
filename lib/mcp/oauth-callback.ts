/**
 * The loopback end of a sign-in: a one-route HTTP server on 127.0.0.1 that the authorization
 * server sends the browser back to (`/callback?code=…&state=…`). It accepts only an answer whose
 * `state` is the one shiro sent, and, when `iss` is present (RFC 9207) or the server promised it,
 * whose `iss` is the authorization server's issuer. A wrong `state` gets a 400 and the wait goes on
 * (a stray or forged request cannot end a sign-in); a wrong `iss` on the right `state` (a mix-up)
 * and an `error` from the server end it.
 */
export type Expectation = { state(): string | undefined; issuer(): { issuer?: string; issRequired: boolean } };

export type CallbackServer = {
  port: number;
  /** The next authorization code, once a valid answer came; rejects on an `error` answer or the signal. */
  code(signal: AbortSignal): Promise<string>;
  stop(): void;
};

const page = (title: string, text: string) =>
  new Response(`<!doctype html><meta charset="utf-8"><title>${title}</title><p>${text}</p>`, { headers: { "content-type": "text/html; charset=utf-8" } });

/** Listens on `port` (0: any free one). Throws when the port is taken. */
export function startCallbackServer(port: number, expect: Expectation): CallbackServer {
  // One wait at a time; a step-up (login.ts) waits again for the next authorization's answer.
  let settle: { resolve(code: string): void; reject(error: Error): void } | undefined;
  let early: { code?: string; error?: Error } | undefined;
  const finish = (outcome: { code?: string; error?: Error }) => {
    if (!settle) return void (early ??= outcome);
    const waiting = settle;
    settle = undefined;
    if (outcome.code !== undefined) waiting.resolve(outcome.code);
    else waiting.reject(outcome.error!);
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port,
    fetch(request) {
      const url = new URL(request.url);
      if (url.pathname !== "/callback") return new Response("not found", { status: 404 });
      const params = url.searchParams;
      const sent = expect.state();
      if (!sent || params.get("state") !== sent) return new Response("This sign-in answer does not belong to the sign-in shiro is waiting for (state does not match).", { status: 400 });
      const { issuer, issRequired } = expect.issuer();
      const iss = params.get("iss");
      if ((iss !== null && issuer !== undefined && iss !== issuer) || (iss === null && issRequired)) {
        // The answer to shiro's own request, from another issuer: a mix-up; the sign-in ends here.
        finish({ error: new Error(`the answer came back from ${iss ?? "an unnamed issuer"}, not from the authorization server ${issuer ?? ""} (RFC 9207 iss check); nothing was signed in`) });
        return new Response("This sign-in answer does not come from the expected authorization server (iss does not match).", { status: 400 });
      }
      const error = params.get("error");
      if (error) {
        const description = params.get("error_description");
        finish({ error: new Error(`the authorization server refused the sign-in: ${error}${description ? ` (${description})` : ""}`) });
        return page("Sign-in refused", "The sign-in was refused. You can close this tab and go back to shiro.");
      }
      const code = params.get("code");
      if (!code) return new Response("The answer has no code.", { status: 400 });
      finish({ code });
      return page("Signed in", "Signed in. You can close this tab and go back to shiro.");
    },
  });
  return {
    port: server.port!,
    code(signal) {
      return new Promise<string>((resolve, reject) => {
        settle = { resolve, reject };
        const came = early;
        early = undefined;
        if (came) finish(came);
        signal.addEventListener("abort", () => reject(signal.reason instanceof Error ? signal.reason : new Error("the sign-in was stopped")), { once: true });
      });
    },
    stop: () => void server.stop(true),
  };
}
