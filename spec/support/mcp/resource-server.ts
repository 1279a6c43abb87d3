/**
 * A stdio MCP server written with the SDK's low-level Server that has resources and no tools: a
 * text guide, a binary logo, and a template. Reading an unknown URI is an error.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, McpError, ReadResourceRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new Server({ name: "docs", version: "1.0.0" }, { capabilities: { resources: {} } });
server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [
    { uri: "docs://guide", name: "guide", title: "The guide", mimeType: "text/markdown", description: "how to use the thing" },
    { uri: "docs://logo.png", name: "logo", mimeType: "image/png" },
  ],
}));
server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [{ uriTemplate: "docs://pages/{page}", name: "page" }] }));
server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
  const uri = request.params.uri;
  if (uri === "docs://guide") return { contents: [{ uri, mimeType: "text/markdown", text: "# Guide\nTurn it on." }] };
  if (uri === "docs://logo.png") return { contents: [{ uri, mimeType: "image/png", blob: Buffer.from("not a png!!!").toString("base64") }] };
  throw new McpError(-32002, `resource not found: ${uri}`);
});
await server.connect(new StdioServerTransport());
