/**
 * The bench's floor: the smallest agent loop the AI SDK allows, with one bash tool, compiled with
 * the same Bun as shiro. `bun run bench` runs it beside `dist/shiro` on the same fake server, so
 * "how much slower than the SDK itself" is measured in one run on one machine. Not shipped.
 *
 * Usage: floor <baseURL> <prompt> <maxSteps>
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { jsonSchema, stepCountIs, streamText, tool } from "ai";

const [baseURL, prompt, maxSteps] = process.argv.slice(2);
const provider = createOpenAICompatible({ name: "floor", baseURL: baseURL!, apiKey: "none" });

const bash = tool({
  description: "Run a shell command.",
  inputSchema: jsonSchema<{ command: string }>({ type: "object", properties: { command: { type: "string" } }, required: ["command"] }),
  execute: async ({ command }) => {
    const child = Bun.spawn(["bash", "-c", command], { stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    return out + err;
  },
});

// Bytecode builds are CommonJS, so no top-level await.
async function main(): Promise<void> {
  const result = streamText({
    model: provider.chatModel("gpt-5-mini"),
    prompt: prompt!,
    tools: { bash },
    stopWhen: stepCountIs(Number(maxSteps)),
  });
  for await (const part of result.textStream) process.stdout.write(part);
  process.stdout.write("\n");
}
void main();
