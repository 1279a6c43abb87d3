import { expect, test } from "bun:test";
import { startCallbackServer } from "../../lib/mcp/oauth-callback.ts";

const expectation = (issuer?: string, issRequired = false) => ({ state: () => "the-state", issuer: () => ({ issuer, issRequired }) });

test("the sign-in callback ignores an answer with another state (400) and takes the one with shiro's state", async () => {
  const callback = startCallbackServer(0, expectation("https://as.example"));
  try {
    const code = callback.code(AbortSignal.timeout(5_000));
    const base = `http://127.0.0.1:${callback.port}/callback`;
    expect((await fetch(`${base}?code=forged&state=other`)).status).toBe(400);
    expect((await fetch(`${base}?code=forged`)).status).toBe(400);
    expect((await fetch(`${base}?code=real&state=the-state&iss=${encodeURIComponent("https://as.example")}`)).status).toBe(200);
    expect(await code).toBe("real");
  } finally {
    callback.stop();
  }
});

test("the sign-in callback ends the sign-in when a server that promised iss leaves it out, or on an error answer", async () => {
  const missingIss = startCallbackServer(0, expectation("https://as.example", true));
  try {
    const outcome = missingIss.code(AbortSignal.timeout(5_000)).then(String, (e: Error) => e.message);
    expect((await fetch(`http://127.0.0.1:${missingIss.port}/callback?code=c&state=the-state`)).status).toBe(400);
    expect(await outcome).toContain("RFC 9207 iss check");
  } finally {
    missingIss.stop();
  }
  const refused = startCallbackServer(0, expectation());
  try {
    const outcome = refused.code(AbortSignal.timeout(5_000)).then(String, (e: Error) => e.message);
    await fetch(`http://127.0.0.1:${refused.port}/callback?error=access_denied&error_description=no&state=the-state`);
    expect(await outcome).toContain("refused the sign-in: access_denied (no)");
  } finally {
    refused.stop();
  }
});

test("after one answer the callback waits for the next (a step-up's second authorization), answered before or after the wait begins", async () => {
  let state = "first-state";
  const callback = startCallbackServer(0, { state: () => state, issuer: () => ({ issRequired: false }) });
  try {
    const base = `http://127.0.0.1:${callback.port}/callback`;
    const first = callback.code(AbortSignal.timeout(5_000));
    await fetch(`${base}?code=one&state=first-state`);
    expect(await first).toBe("one");
    state = "second-state";
    expect((await fetch(`${base}?code=two&state=second-state`)).status).toBe(200); // came before the wait
    expect(await callback.code(AbortSignal.timeout(5_000))).toBe("two");
    state = "third-state";
    const third = callback.code(AbortSignal.timeout(5_000));
    await fetch(`${base}?code=three&state=third-state`);
    expect(await third).toBe("three");
  } finally {
    callback.stop();
  }
});
