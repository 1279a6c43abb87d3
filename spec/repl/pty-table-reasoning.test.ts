// A Markdown table held while it streams is not cut short by reasoning that arrives in the middle
// of the answer: it is drawn once, whole and aligned, on both wires, live and when resumed.
import { expect, test } from "bun:test";
import { WIRES } from "../support/requests.ts";
import { KEYS, usePty } from "./pty.ts";

const { serve, start } = usePty();

/** The answer's pieces in the order the stream sends them: text, then reasoning in the middle of the table, then the rest. */
const PIECES: Piece[] = [
  { text: "Counts:\n\n| file | lines |\n| :--- | ---: |\n| a.ts | 7 |\n" },
  { reasoning: "checking the count of the longer file before the last row" },
  { text: "| parser-with-a-long-name.ts | 412 |\n\nDone." },
];
/** The table drawn once it is whole: the long row sets the first column's width. */
const DRAWN = ["file                       │ lines", "───────────────────────────┼──────", "a.ts                       │     7", "parser-with-a-long-name.ts │   412"].join("\n");

type Piece = { text: string } | { reasoning: string };

/** Words with their leading spaces, as a model streams them. */
const words = (text: string) => text.match(/\s*\S+|\s+$/g) ?? [];

/** A Responses stream with the pieces as items in order: each text its own message, each reasoning its own reasoning item. */
function responsesStream(pieces: Piece[]): string {
  const events: Record<string, unknown>[] = [];
  const emit = (type: string, fields: Record<string, unknown>) => events.push({ type, sequence_number: events.length, ...fields });
  const response = { id: "resp_interleaved", object: "response", created_at: 1, model: "gpt-test", status: "in_progress", output: [] as unknown[], usage: null as unknown };
  emit("response.created", { response });
  pieces.forEach((piece, output_index) => {
    if ("reasoning" in piece) {
      const id = `rs_interleaved${output_index}`;
      const at = { item_id: id, output_index, summary_index: 0 };
      emit("response.output_item.added", { output_index, item: { id, type: "reasoning", summary: [] } });
      emit("response.reasoning_summary_part.added", { ...at, part: { type: "summary_text", text: "" } });
      for (const delta of words(piece.reasoning)) emit("response.reasoning_summary_text.delta", { ...at, delta });
      emit("response.reasoning_summary_text.done", { ...at, text: piece.reasoning });
      emit("response.reasoning_summary_part.done", { ...at, part: { type: "summary_text", text: piece.reasoning } });
      const item = { id, type: "reasoning", summary: [{ type: "summary_text", text: piece.reasoning }] };
      emit("response.output_item.done", { output_index, item });
      response.output.push(item);
      return;
    }
    const id = `msg_interleaved${output_index}`;
    const at = { item_id: id, output_index, content_index: 0 };
    const part = (text: string) => ({ type: "output_text", annotations: [], logprobs: [], text });
    emit("response.output_item.added", { output_index, item: { id, type: "message", status: "in_progress", content: [], role: "assistant" } });
    emit("response.content_part.added", { ...at, part: part("") });
    for (const delta of words(piece.text)) emit("response.output_text.delta", { ...at, delta, logprobs: [] });
    emit("response.output_text.done", { ...at, text: piece.text, logprobs: [] });
    emit("response.content_part.done", { ...at, part: part(piece.text) });
    const item = { id, type: "message", status: "completed", content: [part(piece.text)], role: "assistant" };
    emit("response.output_item.done", { output_index, item });
    response.output.push(item);
  });
  const usage = { input_tokens: 50, input_tokens_details: { cached_tokens: 0 }, output_tokens: 40, output_tokens_details: { reasoning_tokens: 15 }, total_tokens: 90 };
  emit("response.completed", { response: { ...response, status: "completed", usage } });
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
}

/** A Chat Completions stream (DeepSeek's shape) with `content` and `reasoning_content` deltas in the pieces' order. */
function chatStream(pieces: Piece[]): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, usage?: unknown) =>
    `data: ${JSON.stringify({ id: "chatcmpl-interleaved", object: "chat.completion.chunk", created: 1, model: "deepseek-reasoner", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
  let out = chunk({ role: "assistant", content: "" });
  for (const piece of pieces) {
    if ("reasoning" in piece) for (const reasoning_content of words(piece.reasoning)) out += chunk({ content: null, reasoning_content });
    else for (const content of words(piece.text)) out += chunk({ content, reasoning_content: null });
  }
  out += chunk({ content: "" }, "stop", { prompt_tokens: 50, completion_tokens: 40, total_tokens: 90, completion_tokens_details: { reasoning_tokens: 15 } });
  return out + "data: [DONE]\n\n";
}

for (const { wire, flags } of WIRES) {
  test(`${wire}: reasoning in the middle of a streamed table leaves it to be drawn once, whole and aligned`, async () => {
    const chat = wire === "chat";
    const raw = chat ? chatStream(PIECES) : responsesStream(PIECES);
    // On chat, reasoning streams from servers like DeepSeek, through the client shiro picks for them.
    const s = chat ? await serve.with({ vendor: "deepseek" })({ raw }) : await serve({ raw });
    const pty = await start({ baseURL: s.url, cols: 80, args: [...flags], env: chat ? { SHIRO_CLIENT: undefined } : {} });
    await pty.waitForPrompt(1);
    pty.line("count the lines");
    await pty.waitFor("Done.");
    await pty.waitForPrompt(2);
    const screen = pty.screen();
    expect(screen).toContain(DRAWN);
    expect(screen.split("file ").length - 1).toBe(1); // drawn once, not a cut-short table and the rest after it
    expect(screen).not.toContain("| parser");
    // The reasoning is shown as ever: one line, and /reasoning opens it.
    expect(screen).toMatch(/✻ thought for \d+s · ~\d+ tokens · \/reasoning shows it/);
    expect(screen).not.toContain("checking the count");
    pty.line("/reasoning");
    await pty.waitFor("checking the count of the longer file before the last row");
    pty.write(KEYS.ctrlD);
    await pty.exited;
    // Resumed, the answer is the same one table (the saved text is in two parts, around the reasoning).
    const again = await start({ baseURL: s.url, cols: 80, home: pty.home, cwd: pty.cwd, args: [...flags, "-c"], env: chat ? { SHIRO_CLIENT: undefined } : {} });
    await again.waitForPrompt(1);
    const replay = again.screen();
    expect(replay).toContain(`Counts:\n\n${DRAWN}\n\nDone.`);
    expect(replay).not.toContain("| parser");
  }, 30_000);
}
