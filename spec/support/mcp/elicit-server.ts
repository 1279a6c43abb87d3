/**
 * A stdio MCP server written with the SDK's low-level Server, for elicitation: its one tool,
 * `book`, asks the client for the booking's details (`elicitation/create`, form mode: an integer
 * with bounds and a default, a required text, a boolean with a default, a titled choice) and
 * returns what came back as JSON. When the client did not declare elicitation it does not ask,
 * and says so, as the specification wants of a server.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new Server({ name: "booker", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: "book", description: "Book a table, asking the user for the details", inputSchema: { type: "object", properties: {} } }],
}));
server.setRequestHandler(CallToolRequestSchema, async () => {
  if (!server.getClientCapabilities()?.elicitation) return { content: [{ type: "text", text: "no elicitation: the client cannot be asked" }] };
  const result = await server.elicitInput({
    message: "Details of the booking",
    requestedSchema: {
      type: "object",
      properties: {
        seats: { type: "integer", title: "Seats", minimum: 1, maximum: 4, default: 2 },
        name: { type: "string", title: "Name", description: "who books" },
        vip: { type: "boolean", title: "VIP", default: false },
        meal: { type: "string", title: "Meal", oneOf: [{ const: "veg", title: "Vegetarian" }, { const: "fish", title: "Fish" }] },
      },
      required: ["name"],
    },
  });
  return { content: [{ type: "text", text: JSON.stringify(result) }] };
});
await server.connect(new StdioServerTransport());
