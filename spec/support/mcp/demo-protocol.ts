/**
 * A tiny MCP server of the project's own, written from the protocol (JSON-RPC 2.0 messages), not
 * with the SDK shiro uses, so the tests check shiro against the protocol rather than the SDK
 * against itself. The stdio script (demo-server.ts) and the HTTP server (http-server.ts) share it.
 *
 * Tools: `echo` (returns its text), `picture` (an image and a resource link), `crash` (the
 * process exits mid-call, stdio only), `grow` (adds the tool `extra`; the stdio server then sends
 * `notifications/tools/list_changed`), and with `tools: N` also `tool_01` … `tool_N`.
 */
export type DemoOptions = {
  /** Extra numbered tools, for the lazy mode past the budget. */
  tools?: number;
  /** Exits the process when `crash` is called (stdio). */
  onCrash?: () => void;
  /** Set once `grow` was called: `extra` is listed from then on. */
  grown?: boolean;
};

export type Message = { jsonrpc: "2.0"; id?: number | string; method?: string; params?: any };

export function demoTools(opts: DemoOptions) {
  const tools: { name: string; description: string; inputSchema: object }[] = [
    { name: "echo", description: "Echo the text back", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
    { name: "picture", description: "Draw a picture", inputSchema: { type: "object", properties: {} } },
    { name: "crash", description: "Stop the server in the middle of the call", inputSchema: { type: "object", properties: {} } },
    { name: "grow", description: "Add a tool to this server", inputSchema: { type: "object", properties: {} } },
  ];
  if (opts.grown) tools.push({ name: "extra", description: "A tool added during the session", inputSchema: { type: "object", properties: {} } });
  for (let i = 1; i <= (opts.tools ?? 0); i++) {
    const n = String(i).padStart(2, "0");
    tools.push({ name: `tool_${n}`, description: `Numbered tool ${n} that reports the weather of region ${n}`, inputSchema: { type: "object", properties: { city: { type: "string" } } } });
  }
  return tools;
}

/** The answer to one message; undefined for a notification (nothing is sent back). */
export function answer(message: Message, opts: DemoOptions): object | undefined {
  if (message.id === undefined) return undefined;
  const reply = (result: object) => ({ jsonrpc: "2.0", id: message.id, result });
  switch (message.method) {
    case "initialize":
      return reply({ protocolVersion: message.params?.protocolVersion ?? "2025-06-18", capabilities: { tools: { listChanged: true } }, serverInfo: { name: "demo", version: "1.0.0" } });
    case "ping":
      return reply({});
    case "tools/list":
      return reply({ tools: demoTools(opts) });
    case "tools/call": {
      const name = message.params?.name;
      const args = message.params?.arguments ?? {};
      if (name === "echo") return reply({ content: [{ type: "text", text: `echo: ${args.text}` }] });
      if (name === "picture")
        return reply({
          content: [
            { type: "image", mimeType: "image/png", data: Buffer.from("not really a png").toString("base64") },
            { type: "resource_link", uri: "file:///pictures/cat.png", name: "cat.png", mimeType: "image/png" },
          ],
        });
      if (name === "grow") {
        opts.grown = true;
        return reply({ content: [{ type: "text", text: "grown" }] });
      }
      if (name === "extra") return reply({ content: [{ type: "text", text: "extra ran" }] });
      if (name === "crash") {
        opts.onCrash?.();
        return reply({ content: [{ type: "text", text: "cannot crash here" }], isError: true });
      }
      if (typeof name === "string" && /^tool_\d+$/.test(name)) return reply({ content: [{ type: "text", text: `${name}: sunny in ${args.city}` }] });
      return { jsonrpc: "2.0", id: message.id, error: { code: -32602, message: `unknown tool ${name}` } };
    }
    default:
      return { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `method not found: ${message.method}` } };
  }
}
