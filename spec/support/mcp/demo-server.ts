/**
 * The demo MCP server over stdio (newline-delimited JSON-RPC), run as `bun demo-server.ts`:
 *   --tools N          N extra numbered tools
 *   --slow-init MS     wait before answering initialize
 *   --starts FILE      append a line to FILE each time the server starts
 *   --fail             exit at once with a message on stderr (a server that cannot start)
 *   --fail-says TEXT   that message (default: "demo: missing DEMO_TOKEN")
 *   --crash-says TEXT  what the `crash` tool writes on stderr before the process exits
 */
import { appendFileSync } from "node:fs";
import { answer } from "./demo-protocol.ts";

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const starts = flag("--starts");
if (starts) appendFileSync(starts, `${process.pid}\n`);
if (argv.includes("--fail")) {
  process.stderr.write(`${flag("--fail-says") ?? "demo: missing DEMO_TOKEN"}\n`);
  process.exit(3);
}
const slowInitMs = Number(flag("--slow-init") ?? 0);
const opts: { tools: number; onCrash: () => void; grown?: boolean } = { tools: Number(flag("--tools") ?? 0), onCrash: () => (flag("--crash-says") ? process.stderr.write(`${flag("--crash-says")}\n`, () => process.exit(1)) : process.exit(1)) };

let buffer = "";
const decoder = new TextDecoder();
for await (const chunk of Bun.stdin.stream()) {
  buffer += decoder.decode(chunk, { stream: true });
  let newline: number;
  while ((newline = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, newline).trim();
    buffer = buffer.slice(newline + 1);
    if (!line) continue;
    const message = JSON.parse(line);
    if (message.method === "initialize" && slowInitMs > 0) await Bun.sleep(slowInitMs);
    const reply = answer(message, opts);
    // `grow` changes the list, says so, then answers (as a server that updates its list as part of
    // the call does): shiro ends the call once the new list is in, so the next request offers it.
    // A notice that came after the answer would reach the request after that.
    if (message.method === "tools/call" && message.params?.name === "grow") {
      process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }) + "\n");
    }
    if (reply) process.stdout.write(JSON.stringify(reply) + "\n");
  }
}
