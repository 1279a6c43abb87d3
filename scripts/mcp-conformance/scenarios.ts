/**
 * What the conformance adapter (client.ts) does for each client scenario of
 * @modelcontextprotocol/conformance: which tool of the scenario's server the scripted model calls,
 * whether `shiro mcp login` runs first, and what the server's `oauth` entry in shiro's config says
 * (the client a scenario pre-registered, the Client ID Metadata Document URL it accepts). Secrets
 * go through `${VAR}`, as a user's config would have them.
 */
export type ScenarioPlan = {
  tool?: { name: string; args: Record<string, unknown> };
  login: boolean;
  /** The turn runs in the interactive loop (in a pseudo-terminal): headless does not declare elicitation. */
  interactive?: boolean;
  oauth?: Record<string, unknown>;
  env: Record<string, string>;
  /** Set when shiro has no such feature: the adapter says so and exits 3. */
  unsupported?: string;
};

/** The URL the basic-cimd scenario's authorization server expects as the client id. */
const CONFORMANCE_CIMD_URL = "https://conformance-test.local/client-metadata.json";

/** The tool each scenario's server offers (every authorization scenario offers "test-tool"). */
const TOOLS: Record<string, ScenarioPlan["tool"]> = {
  tools_call: { name: "add_numbers", args: { a: 5, b: 3 } },
  "elicitation-sep1034-client-defaults": { name: "test_client_elicitation_defaults", args: {} },
  "sse-retry": { name: "test_reconnection", args: {} },
};

export function scenarioPlan(scenario: string, context: Record<string, string | undefined>): ScenarioPlan {
  const auth = scenario.startsWith("auth/");
  const plan: ScenarioPlan = { login: auth, env: {}, ...(TOOLS[scenario] ? { tool: TOOLS[scenario] } : auth ? { tool: { name: "test-tool", args: {} } } : {}) };
  const secret = (value: string | undefined) => {
    plan.env.CONF_CLIENT_SECRET = value ?? "";
    return "${CONF_CLIENT_SECRET}";
  };
  switch (scenario) {
    case "elicitation-sep1034-client-defaults":
      plan.interactive = true;
      break;
    case "auth/basic-cimd":
      plan.oauth = { clientMetadataUrl: CONFORMANCE_CIMD_URL };
      break;
    case "auth/pre-registration":
      // A client registered by hand, with the loopback port it was registered with.
      plan.oauth = { clientId: context.client_id, clientSecret: secret(context.client_secret), callbackPort: freePort() };
      break;
    case "auth/client-credentials-basic":
      plan.login = false; // machine to machine: the session signs itself in
      plan.tool = undefined; // the scenario's check is the token request; listing the tools shows it worked
      plan.oauth = { grant: "client_credentials", clientId: context.client_id, clientSecret: secret(context.client_secret) };
      break;
    case "auth/client-credentials-jwt":
      plan.unsupported = "client authentication with a private key (private_key_jwt) is not a shiro setting";
      break;
    case "auth/cross-app-access-complete-flow":
      plan.unsupported = "enterprise-managed authorization (token exchange with an identity provider, SEP-990) is not supported";
      break;
  }
  return plan;
}

/** A port free on 127.0.0.1 right now (for a pre-registered client's redirect). */
function freePort(): number {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = server.port!;
  server.stop(true);
  return port;
}
