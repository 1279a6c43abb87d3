/**
 * The demo MCP server over the older HTTP+SSE transport: GET /sse opens the event stream, whose
 * first event names the URL to POST messages to; answers come back as `message` events. A POST
 * to /sse (what the streamable HTTP transport tries first) is refused with 405, as such servers do.
 */
import { answer, type DemoOptions, type Message } from "./demo-protocol.ts";

export function startSseMcpServer(opts: DemoOptions = {}) {
  const streams = new Map<string, ReadableStreamDefaultController<Uint8Array>>();
  const encoder = new TextEncoder();
  let next = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === "/sse" && request.method === "GET") {
        const id = String(++next);
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            streams.set(id, controller);
            controller.enqueue(encoder.encode(`event: endpoint\ndata: /messages?session=${id}\n\n`));
          },
          cancel() {
            streams.delete(id);
          },
        });
        return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
      }
      if (url.pathname === "/messages" && request.method === "POST") {
        const stream = streams.get(url.searchParams.get("session") ?? "");
        if (!stream) return new Response("no such session", { status: 404 });
        const reply = answer((await request.json()) as Message, opts);
        if (reply) stream.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(reply)}\n\n`));
        return new Response("Accepted", { status: 202 });
      }
      return new Response("method not allowed", { status: 405 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/sse`,
    stop: () => {
      for (const stream of streams.values()) stream.close();
      server.stop(true);
    },
  };
}
