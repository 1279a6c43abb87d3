/**
 * One connection to one MCP server, through the official SDK (@modelcontextprotocol/sdk, loaded
 * here on first use only, so a session without servers never loads it). Local servers are started
 * with their own environment on top of a small safe base (PATH, HOME, USER, SHELL, TERM, …: the
 * SDK's default), never shiro's whole environment, so provider keys do not leak into them. Remote
 * servers are tried over streamable HTTP first and over the older SSE transport when that fails.
 */
import { isAbsolute, resolve } from "node:path";
import { isStdio, type McpServerConfig, type RemoteServerConfig } from "../config/mcp-schema.ts";
import { expandAll, expandEnv, expandOAuth } from "./expand-env.ts";
import { createOAuthProvider, loginCommand, McpSignInNeeded, stepUpFetch } from "./oauth-provider.ts";
import type { SecretStore } from "./token-vault.ts";
import { allPages } from "./pages.ts";
import { fieldsOf, type Elicitor } from "./elicitation.ts";
import type { McpCallResult } from "./result-text.ts";
import type { McpResourceContents, ResourceAccess } from "./resources.ts";
import { serverWords, type McpPromptInfo, type PromptAccess } from "./prompts.ts";

/** A tool as the server lists it. */
export type McpToolInfo = { name: string; description: string; inputSchema: Record<string, unknown> };

export type McpConnection = {
  /** "stdio", "http" or "sse": how it was reached. */
  transport: "stdio" | "http" | "sse";
  /** Reached with an OAuth token (from `shiro mcp login`, or client credentials). */
  signedIn: boolean;
  tools: McpToolInfo[];
  /** The server's resources, when it has the capability (resources.ts offers them as a tool). */
  resources?: ResourceAccess;
  /** The server's prompts, when it has the capability (the loop's and `-p`'s `/mcp__<server>__<prompt>`). */
  prompts?: PromptAccess;
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult>;
  close(): Promise<void>;
  /** Ends a local server's process at once (for exit handlers, which cannot wait). */
  kill(): void;
};

export type ConnectOptions = {
  /** Where a relative `cwd` starts, and where a server without one runs: the workspace root. */
  root: string;
  /** shiro's home: where sign-ins to remote servers are kept (oauth-store.ts). */
  home: string;
  /** The system's secret store for sign-in tokens (token-vault.ts); undefined: the file only. */
  secrets?: SecretStore;
  /** shiro's environment, for `${VAR}` in the config. */
  env: Record<string, string | undefined>;
  version: string;
  signal: AbortSignal;
  /** The connection ended (the process exited, the stream closed) without close() being called. */
  onClosed(why: string): void;
  /** The server changed its tool list; `tools` is the new one. */
  onToolsChanged(tools: McpToolInfo[]): void;
  /**
   * Puts a server's question (`elicitation/create`) to the user. Only the interactive loop gives
   * one; without it the elicitation capability is not declared, so servers do not ask.
   */
  elicit?: Elicitor;
};

/** Longest tail of a local server's stderr quoted when it fails. */
const STDERR_TAIL_CHARS = 400;
/** A tool call may take long (a build, a search); progress notifications extend it. */
const CALL_TIMEOUT_MS = 10 * 60_000;

/** Connects and lists the tools. Rejects with a one-line reason; the caller bounds the time. */
export async function connectServer(name: string, config: McpServerConfig, opts: ConnectOptions): Promise<McpConnection> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const missing = new Set<string>();
  let closedByUs = false;
  let stderrTail = "";

  const { ToolListChangedNotificationSchema, PromptListChangedNotificationSchema, ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
  /** The server's prompts as last listed; fetched again when the server says they changed. */
  let promptList: McpPromptInfo[] = [];
  /** The new tool list being fetched after the server said it changed. */
  let refreshing: Promise<void> | undefined;
  const makeClient = () => {
    // Form-mode elicitation only (no URL mode); the SDK fills in the schema's defaults the user left.
    const made = new Client({ name: "shiro", version: opts.version }, opts.elicit ? { capabilities: { elicitation: { form: { applyDefaults: true } } } } : {});
    const elicit = opts.elicit;
    if (elicit) {
      made.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
        const params = request.params;
        if (params.mode === "url") return { action: "decline" as const };
        return elicit({ server: name, message: params.message, fields: fieldsOf(params.requestedSchema) }, extra.signal);
      });
    }
    made.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      const fetched = listAllTools(made).then(
        (tools) => opts.onToolsChanged(tools),
        () => {}, // the old list stays; the next change tries again
      );
      const current: Promise<void> = fetched.finally(() => {
        if (refreshing === current) refreshing = undefined;
      });
      refreshing = current;
    });
    made.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      void listAllPrompts(made).then((prompts) => void (promptList = prompts), () => {});
    });
    return made;
  };

  let client = makeClient();
  let transport: "stdio" | "http" | "sse";
  let pid: number | null = null;
  let signedIn = async () => false;
  const abort = () => void client.close().catch(() => {});
  opts.signal.addEventListener("abort", abort, { once: true });
  try {
    if (isStdio(config)) {
      const { StdioClientTransport, getDefaultEnvironment } = await import("@modelcontextprotocol/sdk/client/stdio.js");
      const cwd = config.cwd ? (isAbsolute(config.cwd) ? config.cwd : resolve(opts.root, config.cwd)) : opts.root;
      const stdio = new StdioClientTransport({
        command: expandEnv(config.command, opts.env, missing),
        args: (config.args ?? []).map((arg) => expandEnv(arg, opts.env, missing)),
        env: { ...getDefaultEnvironment(), ...expandAll(config.env, opts.env, missing) },
        cwd,
        stderr: "pipe",
      });
      stdio.stderr?.on("data", (chunk: Buffer) => {
        stderrTail = (stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
      });
      transport = "stdio";
      await client.connect(stdio);
      pid = stdio.pid;
    } else {
      const url = new URL(expandEnv(config.url, opts.env, missing));
      const requestInit = { headers: expandAll(config.headers, opts.env, missing) };
      // Sign-ins kept by `shiro mcp login` are used and refreshed; nothing interactive happens here.
      // A server given its token in "headers" is not signed in with OAuth: a 401 means that token was refused.
      const fixedToken = Object.keys(requestInit.headers).some((key) => key.toLowerCase() === "authorization");
      const authProvider = fixedToken ? undefined : await authProviderFor(name, config, url, opts, missing);
      signedIn = async () => Boolean((await authProvider?.tokens())?.access_token);
      // shiro's own provider sees a 403 insufficient_scope first (step-up: oauth-provider.ts).
      const auth = authProvider ? { authProvider, ...("insufficientScope" in authProvider ? { fetch: stepUpFetch(authProvider) } : {}) } : {};
      if (config.type === "sse") {
        const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
        transport = "sse";
        await client.connect(new SSEClientTransport(url, { requestInit, ...auth }));
      } else {
        const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
        try {
          transport = "http";
          await client.connect(new StreamableHTTPClientTransport(url, { requestInit, ...auth }));
        } catch (httpError) {
          if (opts.signal.aborted) throw httpError;
          // A server that asked for authorization speaks streamable HTTP: say what it wants, do not try SSE.
          const refused = await authFailure(name, httpError, authProvider?.authTried ?? false, fixedToken);
          if (refused) throw refused;
          // An older server speaks only SSE: the POST is refused (404/405) or answered with the wrong kind.
          const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
          await client.close().catch(() => {});
          client = makeClient();
          transport = "sse";
          try {
            await client.connect(new SSEClientTransport(url, { requestInit }));
          } catch {
            throw httpError; // the HTTP failure says more than the fallback's
          }
        }
      }
    }
    client.onclose = () => {
      if (!closedByUs) opts.onClosed(stderrTail ? `it exited (${oneLine(stderrTail)})` : "the connection closed");
    };
    const tools = await listAllTools(client);
    const hasPrompts = Boolean(client.getServerCapabilities()?.prompts);
    // A server whose prompt list fails still connects: its tools work, it just offers no prompts.
    if (hasPrompts) promptList = await listAllPrompts(client).catch(() => []);
    return {
      transport,
      signedIn: await signedIn(),
      tools,
      ...(client.getServerCapabilities()?.resources ? { resources: resourceAccess(client) } : {}),
      ...(hasPrompts
        ? {
            prompts: {
              list: () => promptList,
              get: async (prompt: string, args: Record<string, string>, signal: AbortSignal) => (await client.getPrompt({ name: prompt, arguments: args }, { signal, timeout: CALL_TIMEOUT_MS })) as Awaited<ReturnType<PromptAccess["get"]>>,
            },
          }
        : {}),
      call: async (tool, args, signal) => {
        const result = (await client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: CALL_TIMEOUT_MS, resetTimeoutOnProgress: true })) as McpCallResult;
        // A call that changed the tool list (the notification came with its answer) ends once the
        // new list is in, so the very next request offers it.
        if (refreshing) await refreshing;
        return result;
      },
      close: async () => {
        closedByUs = true;
        await client.close().catch(() => {});
      },
      kill: () => {
        closedByUs = true;
        void client.close().catch(() => {});
        if (pid !== null) {
          try {
            process.kill(pid, "SIGTERM");
          } catch {
            // already gone
          }
        }
      },
    };
  } catch (error) {
    closedByUs = true;
    await client.close().catch(() => {});
    const reason = error instanceof Error ? error.message : String(error);
    const hints = [missing.size ? `unset variables: ${[...missing].join(", ")}` : "", stderrTail ? `stderr: ${oneLine(stderrTail)}` : ""].filter(Boolean);
    throw new Error(oneLine(reason) + (hints.length ? ` (${hints.join("; ")})` : ""));
  } finally {
    opts.signal.removeEventListener("abort", abort);
  }
}

/**
 * The provider for a remote server: the SDK's client-credentials one for `"grant":
 * "client_credentials"` (tokens in memory, fetched again each session), else shiro's own, which
 * uses and refreshes what `shiro mcp login` kept and never opens a browser.
 */
async function authProviderFor(name: string, config: RemoteServerConfig, url: URL, opts: ConnectOptions, missing: Set<string>) {
  const settings = expandOAuth(config.oauth, opts.env, missing);
  if (settings?.grant === "client_credentials") {
    if (!settings.clientId || !settings.clientSecret) throw new Error('"grant": "client_credentials" needs "clientId" and "clientSecret" in its "oauth" entry');
    const { ClientCredentialsProvider } = await import("@modelcontextprotocol/sdk/client/auth-extensions.js");
    const provider = new ClientCredentialsProvider({ clientId: settings.clientId, clientSecret: settings.clientSecret, clientName: "shiro", ...(settings.scope ? { scope: settings.scope } : {}) });
    return Object.assign(provider, { authTried: true });
  }
  return createOAuthProvider({ home: opts.home, server: name, url: url.href, version: opts.version, mode: { kind: "background" }, ...(settings ? { settings } : {}), ...(opts.secrets ? { secrets: opts.secrets } : {}) });
}

/**
 * The error to report when streamable HTTP failed over authorization (a 401 or 403, or the
 * sign-in flow itself), or undefined when it failed for another reason (then SSE is tried).
 */
async function authFailure(name: string, error: unknown, authTried: boolean, fixedToken: boolean): Promise<Error | undefined> {
  if (error instanceof McpSignInNeeded) return error;
  const { UnauthorizedError } = await import("@modelcontextprotocol/sdk/client/auth.js");
  const { StreamableHTTPError } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const status = error instanceof StreamableHTTPError ? error.code : undefined;
  if (fixedToken && status === 401) return new Error('it refused the Authorization header of its "headers" (HTTP 401): check the token (an unset ${VARIABLE} is empty)');
  if (error instanceof UnauthorizedError || status === 401) return new McpSignInNeeded(`it refused the sign-in: run ${loginCommand(name)} to sign in again`);
  if (status === 403) return new Error(`it refused access (HTTP 403): ${error instanceof Error ? error.message : String(error)}`);
  if (!authTried) return undefined;
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`it asks for authorization (HTTP 401) and signing in failed: ${reason}. If it takes a fixed token instead, give it in a "headers" entry`);
}

type SdkClient = InstanceType<typeof import("@modelcontextprotocol/sdk/client/index.js").Client>;

function resourceAccess(client: SdkClient): ResourceAccess {
  return {
    async list(signal) {
      const resources = await allPages(async (cursor) => {
        const page = await client.listResources(cursor ? { cursor } : undefined, { signal });
        return { items: page.resources, nextCursor: page.nextCursor };
      });
      // Templates are optional for a server; one that does not answer the list has none.
      const templates = await client.listResourceTemplates(undefined, { signal }).then((page) => page.resourceTemplates, () => []);
      return { resources, templates };
    },
    async read(uri, signal) {
      return (await client.readResource({ uri }, { signal, timeout: CALL_TIMEOUT_MS })).contents as McpResourceContents[];
    },
  };
}

async function listAllPrompts(client: SdkClient): Promise<McpPromptInfo[]> {
  return allPages(async (cursor) => {
    const page = await client.listPrompts(cursor ? { cursor } : undefined);
    const items = page.prompts.map((p): McpPromptInfo => ({ name: p.name, ...(p.title ? { title: p.title } : {}), ...(p.description ? { description: p.description } : {}), arguments: (p.arguments ?? []).map((a) => ({ name: a.name, ...(a.description ? { description: a.description } : {}), required: a.required === true })) }));
    return { items, nextCursor: page.nextCursor };
  });
}

async function listAllTools(client: SdkClient): Promise<McpToolInfo[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  return allPages(async (cursor) => {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    return { items: page.tools.map(toolInfo), nextCursor: page.nextCursor };
  });
}

function toolInfo(tool: { name: string; description?: string; title?: string; inputSchema: Record<string, unknown> }): McpToolInfo {
  return { name: tool.name, description: tool.description ?? tool.title ?? "", inputSchema: tool.inputSchema };
}

/** A server's stderr as one line for a notice: its words, without escape sequences or control characters (serverWords). */
function oneLine(text: string): string {
  const flat = serverWords(text);
  return flat.length > 300 ? flat.slice(0, 299) + "…" : flat;
}
