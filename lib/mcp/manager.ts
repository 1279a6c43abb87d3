import { ToolError } from "../errors.ts";
import type { McpServerConfig } from "../config/mcp-schema.ts";
import { isStdio } from "../config/mcp-schema.ts";
import type { AnyTool, ToolContext } from "../tools/define.ts";
import { adaptMcpTool } from "./adapt.ts";
import type { ConnectOptions, McpConnection, McpToolInfo } from "./connect.ts";
import type { Elicitor } from "./elicitation.ts";
import { lazyMcpTools, overBudget } from "./lazy-tools.ts";
import { RESOURCE_TOOL, resourceTool, type McpResourceContents } from "./resources.ts";
import { promptCommand, serverWords, type McpPromptResult, type ServerPrompt } from "./prompts.ts";
import { signInState, type SignInState } from "./sign-in-state.ts";
import { signInMethods } from "./session-sign-in.ts";
import type { SignInResult } from "./login.ts";
import type { SecretStore } from "./token-vault.ts";
import { resultText } from "./result-text.ts";

/** How long a server may take to start and list its tools before it is reported failed. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

/** Where a server's configuration came from: the user's config file, or the project's trusted `.mcp.json`. */
export type ServerSource = "config" | "project";
export type McpServerEntry = { name: string; config: McpServerConfig; source: ServerSource };

export type ServerState = "starting" | "connected" | "failed" | "disabled";
export type ServerStatus = {
  name: string;
  source: ServerSource;
  state: ServerState;
  /** How it was reached once connected; before that, "stdio" or "remote". */
  transport: string;
  tools: number;
  /** Connected with an OAuth token. */
  signedIn?: boolean;
  /** A remote server's OAuth sign-in, as kept on disk (undefined: none and none asked for). */
  signIn?: SignInState;
  error?: string;
  /** It stopped once and was started again (at most once a session). */
  restarted: boolean;
};

export type McpManager = {
  /** The configured server names (disabled ones included), in order. */
  readonly names: readonly string[];
  /** The MCP tools to offer now: each tool, or mcp_search and mcp_call once past the budget (and from then on). */
  tools(): readonly AnyTool[];
  status(): ServerStatus[];
  /** The connected servers' prompts, as slash commands. */
  prompts(): ServerPrompt[];
  getPrompt(server: string, prompt: string, args: Record<string, string>, signal: AbortSignal): Promise<McpPromptResult>;
  /** The connected servers that have resources, with the URIs they listed (for Tab after `@server:`). */
  resourceUris(): { server: string; uris: readonly string[] }[];
  /** Reads a resource; waits for a server still starting. Rejects with a one-line reason. */
  readResource(server: string, uri: string, signal: AbortSignal): Promise<McpResourceContents[]>;
  /** A configured server's entry (for signing in to it). */
  entry(name: string): McpServerEntry | undefined;
  /** Stops a server and starts it again (after a sign-in or a sign-out); not counted as its one restart. */
  reconnect(name: string): Promise<void>;
  /** `/mcp login`: signs in to a remote server (login.ts; `open` shows the URL), then connects it again. */
  /** `notice` gets one line about a kept sign-in that could not be used (set aside, gone from the store). */
  signIn(name: string, open: (url: URL) => Promise<void>, signal: AbortSignal, notice?: (line: string) => void): Promise<SignInResult>;
  /** `/mcp logout`: forgets its sign-in and connects it again (without one); false when it had none. */
  signOut(name: string): Promise<boolean>;
  /** Resolves when no server is still starting, or after `timeoutMs`, whichever is first. */
  settled(timeoutMs: number): Promise<void>;
  /** Notices (a failure, a restart) go here; those raised before a listener was set are handed to the first one. */
  onNotice(listener: (message: string) => void): () => void;
  close(): Promise<void>;
  /** Ends local servers at once; for exit handlers. */
  kill(): void;
};

export type Connector = (name: string, config: McpServerConfig, opts: ConnectOptions) => Promise<McpConnection>;

export type McpManagerOptions = {
  servers: readonly McpServerEntry[];
  root: string;
  /** shiro's home: where sign-ins to remote servers are kept. */
  home: string;
  /** The system's secret store for sign-in tokens (token-vault.ts); undefined: the file only. */
  secrets?: SecretStore;
  env: Record<string, string | undefined>;
  version: string;
  connect: Connector;
  /** The loop's way to put a server's question to the user (connect.ts); absent headless. */
  elicit?: Elicitor;
};

type Server = McpServerEntry & {
  state: ServerState;
  connection?: McpConnection;
  /** The connecting now under way, for a call that arrives meanwhile. */
  pending?: Promise<void>;
  infos: McpToolInfo[];
  adapted: AnyTool[];
  /** The URIs its resources/list gave once connected (Tab completion only). */
  uris: string[];
  error?: string;
  restarts: number;
  /** Bumped at every (re)connection and loss, so a call can tell that its connection died under it. */
  generation: number;
};

/**
 * Owns the session's MCP servers: starts them all in the background as soon as it is created
 * (nothing waits for them), keeps each one's state, adapts their tools, and restarts a server
 * that stops, once per session. A server that fails to start, or stops for good, is reported once
 * through onNotice and the session goes on without it.
 */
export function createMcpManager(opts: McpManagerOptions): McpManager {
  const servers: Server[] = opts.servers.map((entry) => ({
    ...entry,
    state: entry.config.enabled === false ? "disabled" : "starting",
    infos: [],
    adapted: [],
    uris: [],
    restarts: 0,
    generation: 0,
  }));
  const life = new AbortController();
  const listeners = new Set<(message: string) => void>();
  const queued: string[] = [];
  const notify = (message: string) => {
    if (listeners.size === 0) queued.push(message);
    for (const listener of listeners) listener(message);
  };
  const waiters = new Set<() => void>();
  const changed = () => {
    version++;
    if (!servers.some((s) => s.state === "starting")) for (const wake of waiters) wake();
  };
  let version = 0;
  let lazy = false;
  let offered: { version: number; tools: readonly AnyTool[] } | undefined;
  let lazyTools: AnyTool[] | undefined;

  // A server being restarted keeps its tools on offer (a call waits for it), so requests do not change twice.
  const connectedTools = () => servers.flatMap((s) => (s.state === "connected" || (s.state === "starting" && s.restarts > 0) ? s.adapted : []));

  const setTools = (server: Server, infos: McpToolInfo[]) => {
    server.infos = infos;
    server.adapted = infos.map((info) => adaptMcpTool(server.name, info, server.config.allow ?? [], (tool, args, ctx) => callTool(server, tool, args, ctx)));
    // A server with resources gets its read_resource tool, unless one of its own tools has that name.
    if (server.connection?.resources && !infos.some((info) => info.name === RESOURCE_TOOL)) {
      server.adapted.push(resourceTool(server.name, server.config.allow ?? [], async () => liveResources(server)));
    }
  };

  const liveResources = async (server: Server) => {
    if (server.state === "starting") await server.pending;
    const resources = server.connection?.resources;
    if (server.state !== "connected" || !resources) throw new ToolError(`the MCP server "${server.name}" is not running (${server.error ?? server.state}); its resources cannot be read now.`);
    return resources;
  };

  const start = (server: Server) => {
    server.state = "starting";
    const generation = ++server.generation;
    const timeoutMs = server.config.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const attempt = new AbortController();
    const signal = AbortSignal.any([life.signal, attempt.signal]);
    const timer = setTimeout(() => attempt.abort(), timeoutMs);
    const connecting = opts.connect(server.name, server.config, {
      root: opts.root,
      home: opts.home,
      ...(opts.secrets ? { secrets: opts.secrets } : {}),
      env: opts.env,
      ...(opts.elicit ? { elicit: opts.elicit } : {}),
      version: opts.version,
      signal,
      onClosed: (why) => lost(server, generation, why),
      onToolsChanged: (infos) => {
        if (server.generation !== generation) return;
        setTools(server, infos);
        changed();
      },
    });
    const timedOut = new Promise<never>((_, reject) => attempt.signal.addEventListener("abort", () => reject(new Error(`no answer within ${seconds(timeoutMs)} (its "timeoutMs")`)), { once: true }));
    server.pending = Promise.race([connecting, timedOut]).then(
      (connection) => {
        clearTimeout(timer);
        if (server.generation !== generation || life.signal.aborted) return void connection.close();
        server.connection = connection;
        setTools(server, connection.tools);
        server.state = "connected";
        server.error = undefined;
        changed();
        // For Tab after `@server:`: what the server lists now (at most MAX_COMPLETED_URIS of it).
        connection.resources?.list(life.signal).then((listed) => {
          if (server.generation === generation) server.uris = listed.resources.slice(0, MAX_COMPLETED_URIS).map((r) => r.uri);
        }, () => {});
      },
      (error: unknown) => {
        clearTimeout(timer);
        void connecting.then((late) => late.close(), () => {}); // one that answers after its time is closed
        if (server.generation !== generation || life.signal.aborted) return;
        server.state = "failed";
        server.adapted = [];
        server.error = serverWords(error instanceof Error ? error.message : String(error)); // its stderr, an HTTP body: the server's words
        changed();
        notify(`MCP server "${server.name}" did not start: ${server.error}. The session goes on without it; /mcp shows the servers.`);
      },
    );
  };

  /** The connection ended on its own: start the server again the first time, give up the second. */
  const lost = (server: Server, generation: number, why: string) => {
    if (server.generation !== generation || life.signal.aborted) return;
    server.connection = undefined;
    server.generation++;
    if (server.restarts < 1) {
      server.restarts++;
      notify(`MCP server "${server.name}" stopped (${why}); restarting it once.`);
      start(server);
    } else {
      server.state = "failed";
      server.adapted = [];
      server.error = `stopped again (${why}); not restarted`;
      notify(`MCP server "${server.name}" stopped again (${why}); it is not restarted, and its tools are gone for this session.`);
    }
    changed();
  };

  const callTool = async (server: Server, tool: string, args: Record<string, unknown>, ctx: ToolContext) => {
    const shown = `${server.name}/${tool}`;
    if (server.state === "starting") await server.pending;
    const connection = server.connection;
    if (server.state !== "connected" || !connection) {
      throw new ToolError(`${shown}: the MCP server "${server.name}" is not running (${server.error ?? server.state}); its tools cannot be called now.`);
    }
    const generation = server.generation;
    let result;
    try {
      result = await connection.call(tool, args, ctx.signal);
    } catch (error) {
      if (ctx.signal.aborted) throw new ToolError(`${shown}: interrupted`);
      const message = error instanceof Error ? error.message : String(error);
      if (server.generation !== generation) {
        const next = (server.state as ServerState) === "starting" ? " shiro is starting it again; the call may be tried once more." : "";
        throw new ToolError(`${shown}: the MCP server "${server.name}" stopped during the call, so it has no result.${next}`);
      }
      throw new ToolError(`${shown} failed: ${message}`);
    }
    const text = resultText(result);
    if (result.isError) throw new ToolError(`${shown} reported an error: ${text || "(no details)"}`);
    return { output: text || "(the tool returned nothing)", summary: summaryOf(text) };
  };

  const pendingLine = () => {
    const starting = servers.filter((s) => s.state === "starting").map((s) => s.name);
    const failed = servers.filter((s) => s.state === "failed").map((s) => s.name);
    return [starting.length ? `Still starting: ${starting.join(", ")}.` : "", failed.length ? `Not running: ${failed.join(", ")}.` : ""].filter(Boolean).join(" ");
  };

  for (const server of servers) if (server.state === "starting") start(server);
  const named = (name: string) => {
    const server = servers.find((s) => s.name === name);
    if (!server) throw new Error(`no MCP server named "${name}" is configured`);
    return server;
  };

  const manager: Omit<McpManager, "signIn" | "signOut"> = {
    names: servers.map((s) => s.name),
    tools() {
      if (offered?.version === version) return offered.tools;
      const direct = connectedTools();
      if (!lazy && overBudget(direct)) lazy = true; // once lazy, always: the two tools keep requests stable
      lazyTools ??= lazy ? lazyMcpTools(servers.filter((s) => s.state !== "disabled").map((s) => s.name), { tools: connectedTools, pending: pendingLine }) : undefined;
      offered = { version, tools: lazy ? lazyTools! : direct };
      return offered.tools;
    },
    status: () =>
      servers.map((s) => ({
        name: s.name,
        source: s.source,
        state: s.state,
        transport: s.connection?.transport ?? (isStdio(s.config) ? "stdio" : "remote"),
        tools: s.state === "connected" ? s.infos.length : 0,
        ...(s.state === "connected" && s.connection?.signedIn ? { signedIn: true } : {}),
        ...withSignIn(signInState(opts.home, s.name, s.config, opts.env, s.error)),
        ...(s.error ? { error: s.error } : {}),
        restarted: s.restarts > 0,
      })),
    prompts: () => servers.flatMap((s) => (s.state === "connected" && s.connection?.prompts ? s.connection.prompts.list().map((prompt) => ({ server: s.name, prompt, command: promptCommand(s.name, prompt.name) })) : [])),
    async getPrompt(name, prompt, args, signal) {
      const server = named(name);
      if (server.state === "starting") await whileNotAborted(server.pending, signal);
      const prompts = server.connection?.prompts;
      if (server.state !== "connected" || !prompts) throw new Error(`the MCP server "${name}" is not running (${server.error ?? server.state})`);
      return prompts.get(prompt, args, signal);
    },
    resourceUris: () => servers.filter((s) => s.state === "connected" && s.connection?.resources).map((s) => ({ server: s.name, uris: s.uris })),
    async readResource(name, uri, signal) {
      const server = named(name);
      if (server.state === "starting") await whileNotAborted(server.pending, signal);
      const resources = server.connection?.resources;
      if (server.state !== "connected" || !resources) throw new Error(`the MCP server "${name}" ${server.state === "connected" ? "has no resources" : `is not running (${server.error ?? server.state})`}`);
      return resources.read(uri, signal);
    },
    entry: (name) => {
      const server = servers.find((s) => s.name === name);
      return server ? { name: server.name, config: server.config, source: server.source } : undefined;
    },
    async reconnect(name) {
      const server = named(name);
      if (server.state === "disabled") return;
      const old = server.connection;
      server.connection = undefined;
      server.adapted = [];
      server.uris = [];
      start(server); // a new generation: the old connection's close is not taken for a crash
      changed();
      await old?.close();
      await server.pending;
    },
    settled(timeoutMs) {
      if (!servers.some((s) => s.state === "starting")) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        waiters.add(done);
      });
    },
    onNotice(listener) {
      listeners.add(listener);
      for (const message of queued.splice(0)) listener(message);
      return () => listeners.delete(listener);
    },
    async close() {
      life.abort();
      await Promise.all(servers.map((s) => s.connection?.close()));
    },
    kill() {
      life.abort();
      for (const s of servers) s.connection?.kill();
    },
  };
  return Object.assign(manager, signInMethods(manager, opts));
}

/** Waits for `pending` (a server connecting), or rejects as soon as `signal` aborts. */
function whileNotAborted(pending: Promise<void> | undefined, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new Error("stopped"));
  return new Promise((resolve, reject) => {
    const stop = () => reject(new Error("stopped"));
    signal.addEventListener("abort", stop, { once: true });
    void (pending ?? Promise.resolve()).then(() => (signal.removeEventListener("abort", stop), resolve()));
  });
}

/** Most resource URIs kept per server for Tab completion. */
const MAX_COMPLETED_URIS = 500;

function withSignIn(state: SignInState | undefined): { signIn?: SignInState } {
  return state ? { signIn: state } : {};
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}

function summaryOf(text: string): string {
  const lines = text === "" ? 0 : text.split("\n").length;
  return `${lines} ${lines === 1 ? "line" : "lines"}`;
}
