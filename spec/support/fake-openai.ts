// A strict fake of the OpenAI HTTP API (Responses and Chat Completions wires) for end-to-end tests.
// Scripted replies answer requests in order; requests whose history the real API would refuse are rejected
// with the real status and body, recorded in `errors`, and consume no reply, so a broken conversation fails
// loudly. Implementation lives in ./fake-openai/ (one concept per file); this module is the public surface.
//
//   const server = await startFakeServer({ replies: [{ toolCalls: [{ name: "read_file", input: { path: "a" } }] }, { text: "done" }] });
//   createOpenAI({ baseURL: server.url, apiKey: "test" });   // … run the agent …
//   expect(server.errors).toEqual([]); expect(server.pending()).toBe(0); await server.close();
//
// In a spec, take servers from useFakeServer() (use-fake-server.ts): it makes those two checks after every test.
//
// Vendor modes imitate other OpenAI-compatible servers (Mistral, DeepSeek, llama.cpp, vLLM, ollama, OpenRouter,
// Groq, xAI, Azure, LM Studio, stateless Responses servers): their stream quirks, the history they insist on,
// their context-length errors and model-metadata endpoints. See fake-openai/vendors/README.md.
//
//   const s = await serve.with({ vendor: "vllm", models: { "qwen": { contextWindow: 8192 } } })(...replies);
//   s.overflows  // requests refused for not fitting the window (expected, so not in s.errors)
//
// Standalone: `bun spec/support/fake-openai.ts --script replies.json [--vendor <mode>]` prints FAKE_OPENAI_URL=… and serves.
export type {
  CapturedRequest,
  ChatQuirks,
  FakeServer,
  FaultReply,
  HttpErrorReply,
  ModelLimits,
  Overflow,
  OverflowStyle,
  RawReply,
  Reply,
  RequestMatch,
  Routing,
  ScriptedToolCall,
  StartOptions,
  StreamErrorReply,
  TurnReply,
  VendorMode,
} from "./fake-openai/types.ts";
export { estimateInputTokens } from "./fake-openai/context-limit.ts";
export { startFakeServer } from "./fake-openai/server.ts";

if (import.meta.main) {
  const { runCli } = await import("./fake-openai/cli.ts");
  await runCli(process.argv.slice(2));
}
