/**
 * An MCP server written with the SDK's low-level Server, with resources and prompts and one tool:
 *   resources  lib://guide (text), lib://logo.png (binary), lib://broken (reading it fails)
 *   prompts    review (file: required, focus: optional) → one user message naming them;
 *              briefing (no arguments) → a user text, an embedded resource, an image, and an
 *              assistant message
 * Run as a program it serves stdio; `startHttpLibraryServer()` serves it over streamable HTTP in
 * the test's own process (stateless: a new server and transport for each request).
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export const GUIDE_TEXT = "# Library guide\nBorrow with a card.\nReturn within 3 weeks.";
const LOGO = Buffer.from("PNGDATA-not-really-an-image-0123456789").toString("base64");

export function libraryServer(): Server {
  const server = new Server({ name: "library", version: "1.0.0" }, { capabilities: { resources: {}, prompts: {}, tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "ping", description: "answers pong", inputSchema: { type: "object", properties: {} } }] }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: "text", text: "pong" }] }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      { uri: "lib://guide", name: "guide", mimeType: "text/markdown" },
      { uri: "lib://logo.png", name: "logo", mimeType: "image/png" },
      { uri: "lib://broken", name: "broken" },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    if (uri === "lib://guide") return { contents: [{ uri, mimeType: "text/markdown", text: GUIDE_TEXT }] };
    if (uri === "lib://logo.png") return { contents: [{ uri, mimeType: "image/png", blob: LOGO }] };
    if (uri === "lib://broken") throw new McpError(-32603, "the shelf fell over");
    throw new McpError(-32002, `resource not found: ${uri}`);
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [
      { name: "review", description: "Review one file for defects", arguments: [{ name: "file", description: "the file to review", required: true }, { name: "focus", description: "what to look at first" }] },
      { name: "briefing", description: "Brief the model on the library" },
    ],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const args = request.params.arguments ?? {};
    if (request.params.name === "review") {
      return { messages: [{ role: "user", content: { type: "text", text: `Review ${args.file} for defects.${args.focus ? ` Look first at ${args.focus}.` : ""}` } }] };
    }
    if (request.params.name === "briefing") {
      return {
        messages: [
          { role: "user", content: { type: "text", text: "Read the guide below." } },
          { role: "user", content: { type: "resource", resource: { uri: "lib://guide", mimeType: "text/markdown", text: GUIDE_TEXT } } },
          { role: "user", content: { type: "image", data: LOGO, mimeType: "image/png" } },
          { role: "assistant", content: { type: "text", text: "Understood." } },
        ],
      };
    }
    throw new McpError(-32602, `no prompt named ${request.params.name}`);
  });
  return server;
}

/** The same server over streamable HTTP on 127.0.0.1 (JSON answers, no session). */
export function startHttpLibraryServer() {
  const served = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      if (new URL(request.url).pathname !== "/mcp") return new Response("not found", { status: 404 });
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await libraryServer().connect(transport);
      return transport.handleRequest(request);
    },
  });
  return { url: `http://127.0.0.1:${served.port}/mcp`, stop: () => served.stop(true) };
}

if (import.meta.main) await libraryServer().connect(new StdioServerTransport());
