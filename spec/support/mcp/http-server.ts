/**
 * The demo MCP server over streamable HTTP, in the test's own process: each POST to /mcp gets its
 * JSON-RPC answer as a JSON body (which the transport allows), a notification 202, and a GET 405
 * (no server-initiated stream). `headers` records what each request carried.
 */
import { answer, type DemoOptions } from "./demo-protocol.ts";

export function startHttpMcpServer(opts: DemoOptions = {}) {
  const headers: Record<string, string>[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname !== "/mcp") return new Response("not found", { status: 404 });
      headers.push(Object.fromEntries(request.headers.entries()));
      if (request.method === "GET") return new Response("no stream here", { status: 405 });
      if (request.method === "DELETE") return new Response(null, { status: 204 });
      const message = (await request.json()) as Parameters<typeof answer>[0];
      const reply = answer(message, opts);
      if (!reply) return new Response(null, { status: 202 });
      return Response.json(reply, { headers: { "mcp-session-id": "demo-session" } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/mcp`, headers, stop: () => server.stop(true) };
}
