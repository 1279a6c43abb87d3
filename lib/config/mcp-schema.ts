/**
 * The config file's `mcpServers` (and a project's `.mcp.json`): MCP servers in the shape other
 * tools already use (Claude Code's `.mcp.json`, Claude Desktop's config), so a block can be copied
 * over as it is. lib/mcp reads the result; nothing here starts anything.
 */
import * as v from "valibot";

/** A server name becomes part of a tool name (`mcp__<server>__<tool>`), so it is kept to what every provider accepts. */
export const SERVER_NAME = /^[A-Za-z0-9_-]{1,40}$/;

const StringMap = v.record(v.string(), v.string("must be a string"));

/**
 * `allow`: tools of this server that run without asking, by the server's own tool names (`*`
 * wildcards allowed; `["*"]` is every tool). Anything not listed asks, as config rules decide.
 */
const Allow = v.array(v.pipe(v.string("must be a tool name"), v.nonEmpty("must not be empty")), 'must be a list of tool names such as ["search", "get_*"]');

const Common = {
  /** Some tools write a description for their user; shiro accepts it and does not use it. */
  description: v.optional(v.string("must be a string")),
  enabled: v.optional(v.boolean("must be true or false")),
  /** `shiro -p` fails (exit 2) when this server is not connected once it has waited for the servers. */
  required: v.optional(v.boolean("must be true or false")),
  allow: v.optional(Allow),
  /** How long connecting may take before the server is reported failed. */
  timeoutMs: v.optional(v.pipe(v.number("must be a number"), v.integer("must be a whole number"), v.minValue(100, "must be at least 100"))),
};

/** A local server: a program shiro starts and talks to over its stdin and stdout. */
export const StdioServerConfig = v.strictObject({
  type: v.optional(v.literal("stdio")),
  command: v.pipe(v.string("must be the program to run"), v.nonEmpty("must not be empty")),
  args: v.optional(v.array(v.string("must be a string"), "must be a list of strings")),
  env: v.optional(StringMap),
  cwd: v.optional(v.string("must be a directory")),
  ...Common,
});

/**
 * `oauth`: how a remote server that signs in with OAuth knows shiro, when dynamic registration is
 * not what it wants. `clientId` (and `clientSecret`, through `${VAR}`) of a client registered by
 * hand, with the `callbackPort` it was registered with (redirect http://127.0.0.1:<port>/callback);
 * `grant: "client_credentials"` for a machine-to-machine server (no browser, no user);
 * `clientMetadataUrl`, the https address of a Client ID Metadata Document someone hosts for shiro.
 */
const OAuthSettings = v.strictObject({
  clientId: v.optional(v.pipe(v.string("must be a string"), v.nonEmpty("must not be empty"))),
  clientSecret: v.optional(v.string("must be a string")),
  grant: v.optional(v.picklist(["authorization_code", "client_credentials"], 'must be "authorization_code" or "client_credentials"')),
  scope: v.optional(v.string("must be a space-separated list of scopes")),
  callbackPort: v.optional(v.pipe(v.number("must be a number"), v.integer("must be a whole number"), v.minValue(1, "must be a port (1-65535)"), v.maxValue(65535, "must be a port (1-65535)"))),
  clientMetadataUrl: v.optional(v.pipe(v.string("must be a URL"), v.url("must be an https URL"), v.startsWith("https://", "must be an https URL"))),
});
export type OAuthSettings = v.InferOutput<typeof OAuthSettings>;

/** A remote server: streamable HTTP, or the older SSE transport (tried when HTTP is refused, or chosen with `type`). */
export const RemoteServerConfig = v.strictObject({
  type: v.optional(v.picklist(["http", "sse", "streamable-http"], 'must be "http" or "sse"')),
  url: v.pipe(v.string("must be a URL"), v.url("must be a URL such as https://example.com/mcp")),
  headers: v.optional(StringMap),
  oauth: v.optional(OAuthSettings),
  ...Common,
});

const NEITHER = 'must have a "command" (a local server) or a "url" (a remote one)';
const EitherKind = v.union([StdioServerConfig, RemoteServerConfig], NEITHER);
const BothKinds = v.custom<never>(() => false, 'has both "command" and "url": a server is local (a "command") or remote (a "url"), not both');

/**
 * One entry: a `command` makes it local, a `url` remote, and the entry is then checked as that
 * kind, strictly, so a misspelled field (`"evn"`) is an error naming it rather than a setting
 * silently lost. (A plain union of the two strict kinds would answer every typo with "must have
 * a command or a url".)
 */
export const McpServerConfig = v.lazy((input: unknown) => {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return EitherKind;
  if ("command" in input && "url" in input) return BothKinds;
  if ("command" in input) return StdioServerConfig;
  if ("url" in input) return RemoteServerConfig;
  return EitherKind;
});
export type McpServerConfig = v.InferOutput<typeof McpServerConfig>;
export type StdioServerConfig = v.InferOutput<typeof StdioServerConfig>;
export type RemoteServerConfig = v.InferOutput<typeof RemoteServerConfig>;

export const McpServers = v.pipe(
  v.record(v.pipe(v.string(), v.regex(SERVER_NAME, "a server name may use only letters, digits, _ and - (at most 40)")), McpServerConfig),
);
export type McpServers = v.InferOutput<typeof McpServers>;

/** A project's `.mcp.json`: `{ "mcpServers": { … } }`. */
export const ProjectMcpFile = v.object({ mcpServers: McpServers });

export function isStdio(config: McpServerConfig): config is StdioServerConfig {
  return "command" in config;
}
