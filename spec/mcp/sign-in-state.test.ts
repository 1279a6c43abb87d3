import { expect, test } from "bun:test";
import { tempDir } from "../support/cli.ts";
import { writeOAuthRecord } from "../../lib/mcp/oauth-store.ts";
import { describeSignIn, signInState } from "../../lib/mcp/sign-in-state.ts";
import { describeStatus } from "../../lib/mcp/describe-status.ts";

const URL_ = "https://mcp.example/mcp";
const HOUR = 3_600_000;

test("/mcp's sign-in state is read from the kept tokens: signed in, expired but refreshable, expired, or needed", () => {
  const home = tempDir();
  const config = { url: URL_ };
  const at = Date.parse("2026-01-01T00:00:00Z");
  expect(signInState(home, "t", config, {}, undefined, at)).toBeUndefined(); // none kept, none asked for
  expect(signInState(home, "t", config, {}, "it asks you to sign in: run shiro mcp login t", at)).toBe("needed");
  writeOAuthRecord(home, "t", { url: URL_, tokens: { access_token: "a", refresh_token: "r", expires_in: 3600 }, tokensAt: at });
  expect(signInState(home, "t", config, {}, undefined, at + HOUR / 2)).toBe("signed-in");
  expect(signInState(home, "t", config, {}, undefined, at + 2 * HOUR)).toBe("expired-refreshable");
  writeOAuthRecord(home, "t", { url: URL_, tokens: { access_token: "a", expires_in: 3600 }, tokensAt: at });
  expect(signInState(home, "t", config, {}, undefined, at + 2 * HOUR)).toBe("expired");
  // Tokens kept for another URL are not this server's; a fixed Authorization header or a local server has no sign-in.
  expect(signInState(home, "t", { url: "https://elsewhere.example/mcp" }, {}, undefined, at)).toBeUndefined();
  expect(signInState(home, "t", { url: URL_, headers: { Authorization: "Bearer x" } }, {}, undefined, at)).toBeUndefined();
  expect(signInState(home, "t", { command: "srv" }, {}, undefined, at)).toBeUndefined();
});

test("/mcp's lines name the sign-in and, in the loop, /mcp login as the way to sign in", () => {
  const base = { source: "config" as const, transport: "http", tools: 3, restarted: false };
  const lines = describeStatus(
    [
      { ...base, name: "a", state: "connected", signedIn: true, signIn: "signed-in" },
      { ...base, name: "b", state: "connected", signedIn: true, signIn: "expired-refreshable" },
      { ...base, name: "c", state: "failed", tools: 0, transport: "remote", error: "it asks you to sign in: run shiro mcp login c", signIn: "needed" },
    ],
    { login: "/mcp login" },
  );
  expect(lines).toEqual([
    "a (http, from config): connected, signed in, 3 tools",
    "b (http, from config): connected, signed in, 3 tools (token expired, refreshed at the next request)",
    "c (remote, from config): failed: it asks you to sign in: run /mcp login c",
  ]);
  expect(describeSignIn("expired", "/mcp login d")).toBe("token expired: /mcp login d");
});
