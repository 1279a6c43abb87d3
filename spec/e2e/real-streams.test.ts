// Every recording in ../shared/fixtures/real-streams (see its SOURCES.md), replayed byte for byte to the
// compiled binary, with the client shiro picks for that vendor's host and the wire the recording is on.
// What each test expects is read from the recording itself (text, reasoning, tool calls, usage, an
// in-stream error, a cut-off finish), so a recording added to the folder is checked the same way.
// Recorded tool names are not shiro's (`weather`, `add`): they come back to the model as tool errors,
// and a scripted follow-up (in the vendor's own dialect, from the fake's vendor mode) ends the turn, so
// the follow-up request is checked too: tool results for the recorded ids, reasoning sent back where the
// vendor requires it, and no item_reference to a server that stores nothing.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { clientForHost, PRESETS, type PresetName } from "../../lib/config/presets.ts";
import type { Reply, VendorMode } from "../support/fake-openai.ts";
import { VENDORS } from "../support/fake-openai/vendors/index.ts";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { describeWithShared } from "../support/shared-fixtures.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

const serve = useFakeServer();

/** Where a user of each vendor points shiro, when it is not a preset: the host decides the client. */
const HOSTS: Record<string, string> = {
  azure: "https://example-resource.openai.azure.com/openai/v1",
  crusoe: "https://api.crusoe.ai/v1",
};

/** SHIRO_CLIENT as the vendor's real host would make it; unset where that is what 127.0.0.1 gets too. */
function clientEnv(vendor: string): Record<string, string | undefined> {
  const url = HOSTS[vendor] ?? PRESETS[vendor as PresetName]?.baseURL ?? `https://api.${vendor}.example/v1`;
  return { SHIRO_CLIENT: clientForHost(url) === "openai" ? "openai" : undefined };
}

/** Tries shiro makes at most for one request (maxRetries 3, the default, plus the first). */
const ATTEMPTS = 4;

const FOLLOW_UP = { text: "The tools are not available here.", usage: { input: 1000, output: 10 } };

type Call = { id?: string; name: string; args: unknown };
type Recorded = {
  wire: "chat" | "responses";
  text: string;
  reasoning: string;
  /** Chat `reasoning_content`: what DeepSeek insists on getting back with the tool step. */
  reasoningContent: string;
  /** OpenRouter's `reasoning.encrypted` signatures, which must go back with the tool step. */
  signatures: string[];
  calls: Call[];
  usage: { input: number; output: number; cached: number };
  /** The server's words for an error inside the stream, when there is one. */
  error?: string;
  /** The output was cut off at the limit. */
  cut: boolean;
};

/** The JSON payloads of an SSE body (comments, keep-alives, `event:` lines and `[DONE]` skipped). */
function payloads(raw: string): any[] {
  return raw
    .split("\n")
    .filter((l) => l.startsWith("data:") && l.slice(5).trim() !== "[DONE]")
    .map((l) => JSON.parse(l.slice(5)));
}

/** The server's words in an error object, preferring OpenRouter's upstream reason to a generic message. */
function errorWords(error: any): string {
  const message = String(error?.message ?? "");
  const raw = error?.metadata?.raw;
  if (!/^provider returned error$/i.test(message.trim()) || raw === undefined) return message;
  try {
    return String(JSON.parse(raw)?.error?.message ?? raw);
  } catch {
    return String(raw);
  }
}

function readChat(events: any[]): Recorded {
  const r: Recorded = { wire: "chat", text: "", reasoning: "", reasoningContent: "", signatures: [], calls: [], usage: { input: 0, output: 0, cached: 0 }, cut: false };
  const byIndex = new Map<number, Call & { argText: string }>();
  const calls: (Call & { argText: string })[] = [];
  let finish: string | undefined;
  for (const e of events) {
    if (e.error && r.error === undefined) r.error = errorWords(e.error);
    if (e.usage) {
      const u = e.usage;
      const reasoning = u.completion_tokens_details?.reasoning_tokens ?? 0;
      const apart = reasoning > 0 && u.total_tokens >= u.prompt_tokens + u.completion_tokens + reasoning;
      r.usage = { input: u.prompt_tokens ?? 0, output: (u.completion_tokens ?? 0) + (apart ? reasoning : 0), cached: u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens ?? 0 };
    }
    if (e.error) continue; // the client stops reading an error chunk at its error
    const choice = e.choices?.[0];
    if (!choice) continue;
    if (choice.finish_reason) finish = choice.finish_reason;
    const d = choice.delta ?? {};
    if (typeof d.content === "string") r.text += d.content;
    if (typeof d.reasoning_content === "string") r.reasoningContent += d.reasoning_content;
    const thought = d.reasoning_content ?? d.reasoning;
    if (typeof thought === "string") r.reasoning += thought;
    for (const detail of d.reasoning_details ?? []) if (detail.type === "reasoning.encrypted") r.signatures.push(detail.data);
    for (const t of d.tool_calls ?? []) {
      const id = t.id || undefined;
      const name = t.function?.name || undefined;
      let call = t.index != null ? byIndex.get(t.index) : id && name ? undefined : calls.at(-1);
      if (id && call?.id && call.id !== id) call = undefined;
      if (!call) {
        call = { id, name: name ?? "", args: undefined, argText: "" };
        calls.push(call);
        if (t.index != null) byIndex.set(t.index, call);
      }
      call.id ??= id;
      if (!call.name && name) call.name = name;
      call.argText += t.function?.arguments ?? "";
    }
  }
  r.calls = calls.map(({ id, name, argText }) => ({ id, name, args: JSON.parse(argText || "{}") }));
  r.cut = finish === "length";
  return r;
}

function readResponses(events: any[]): Recorded {
  const r: Recorded = { wire: "responses", text: "", reasoning: "", reasoningContent: "", signatures: [], calls: [], usage: { input: 0, output: 0, cached: 0 }, cut: false };
  for (const e of events) {
    if (e.type === "response.output_text.delta") r.text += e.delta;
    if (e.type === "response.reasoning_text.delta" || e.type === "response.reasoning_summary_text.delta") r.reasoning += e.delta;
    if (e.type === "response.output_item.done" && e.item?.type === "function_call") r.calls.push({ id: e.item.call_id, name: e.item.name, args: JSON.parse(e.item.arguments || "{}") });
    if (e.type === "error" && r.error === undefined) r.error = String(e.error?.message ?? e.message ?? "");
    if (e.type === "response.failed" && r.error === undefined) r.error = String(e.response?.error?.message ?? "");
    const done = e.type === "response.completed" || e.type === "response.incomplete" || e.type === "response.failed" ? e.response : undefined;
    if (done?.usage) r.usage = { input: done.usage.input_tokens ?? 0, output: done.usage.output_tokens ?? 0, cached: done.usage.input_tokens_details?.cached_tokens ?? 0 };
    if (e.type === "response.incomplete") r.cut = true;
  }
  return r;
}

function read(raw: string): Recorded {
  const events = payloads(raw);
  return events.some((e) => typeof e.type === "string" && e.type.startsWith("response.")) ? readResponses(events) : readChat(events);
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** The follow-up request's view of the tool step: calls sent back, their results, what rode along. */
function followUpOf(body: any, wire: "chat" | "responses") {
  if (wire === "chat") {
    const assistant = (body.messages as any[]).find((m) => m.role === "assistant" && m.tool_calls);
    return {
      calls: (assistant?.tool_calls ?? []).map((c: any) => ({ id: c.id, name: c.function.name, args: JSON.parse(c.function.arguments) })),
      results: (body.messages as any[]).filter((m) => m.role === "tool").map((m) => ({ id: m.tool_call_id, output: String(m.content) })),
      assistant,
    };
  }
  const input = body.input as any[];
  return {
    calls: input.filter((i) => i.type === "function_call").map((i) => ({ id: i.call_id, name: i.name, args: JSON.parse(i.arguments) })),
    results: input.filter((i) => i.type === "function_call_output").map((i) => ({ id: i.call_id, output: String(i.output) })),
    assistant: undefined,
  };
}

describeWithShared("fixtures/real-streams", "real vendor streams replayed to the binary", (dir) => {
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".sse") || /-\d{3}\.json$/.test(f))
    .sort();

  test("the folder holds recordings", () => expect(files.length).toBeGreaterThan(0));

  for (const rel of files) {
    const vendor = rel.split(/[\\/]/)[0]!;
    const mode = (vendor in VENDORS ? vendor : undefined) as VendorMode | undefined;
    const raw = readFileSync(join(dir, rel), "utf8");

    if (rel.endsWith(".json")) {
      const status = Number(/-(\d{3})\.json$/.exec(rel)![1]);
      const words = oneLine(errorWords(JSON.parse(raw).error)).slice(0, 120);
      const retryable = [408, 409, 429].includes(status) || status >= 500;
      const overflow = /maximum context length|context size|context_length_exceeded/i.test(words);
      // A context refusal naming the window: shiro learns it, prunes the request to fit and sends it once more.
      const outcome = overflow ? "the window learned, the request fitted to it and sent once more" : retryable ? "the server's message in one line, retried" : "the server's message in one line, exit 1 without a retry";
      test(`${rel}: HTTP ${status}, ${outcome}`, async () => {
        const replies: Reply[] = [{ raw, status, contentType: "application/json" }, ...(retryable || overflow ? [FOLLOW_UP] : [])];
        const s = await serve.with({ vendor: mode })(...replies);
        const run = await runShiro(["-p", "replay", "--json", "--api", "chat"], { baseURL: s.url, env: clientEnv(vendor) });
        const lines = jsonLines(run.stdout);
        const record = lines.at(-1)!;
        expect(s.requests.filter((r) => r.wire === "chat")).toHaveLength(replies.length);
        if (overflow) {
          const window = Number(/context length is (\d+)/i.exec(words)?.[1]);
          expect(run.code).toBe(0);
          expect(lines.filter((l) => l.type === "notice").map((l) => l.message)).toEqual([
            `the model's context is ${window.toLocaleString("en-US")} tokens, smaller than shiro assumed; pruned the request to fit and carried on`,
          ]);
          expect(record).toMatchObject({ status: "success", text: FOLLOW_UP.text });
        } else if (retryable) {
          expect(run.code).toBe(0);
          expect(lines.find((l) => l.type === "notice")?.message).toContain(words);
        } else {
          expect(run.code).toBe(1);
          expect(record).toMatchObject({ status: "error", exitCode: 1 });
          expect(record.error).toStartWith(`provider returned ${status}: `);
          expect(record.error).toContain(words);
        }
        expect(run.stderr).toBe("");
      });
      continue;
    }

    const want = read(raw);
    const followed = want.calls.length > 0 && want.error === undefined;
    const outcome = want.error !== undefined ? "an error" : want.cut && !want.text && !followed ? "cut off with nothing usable" : followed ? `${want.calls.length} tool call(s) and a follow-up` : "an answer";
    // An error before any output may be retried (its code decides: 429 and 5xx are), so it is on offer as often as shiro tries.
    const early = want.error !== undefined && !want.text && !want.reasoning && want.calls.length === 0;
    test(`${rel} (${want.wire}): ${outcome}`, async () => {
      const work = tempDir();
      if (early) serve.allowLeftovers("an error before any output is sent again only when its code says a retry can help");
      const s = await serve.with({ vendor: mode })(...Array<Reply>(early ? ATTEMPTS : 1).fill({ raw }), ...(followed ? [FOLLOW_UP] : []));
      const run = await runShiro(["-p", "replay", "--json", "--api", want.wire], { baseURL: s.url, cwd: work, env: clientEnv(vendor) });
      expect(run.stderr).toBe("");
      const lines = jsonLines(run.stdout);
      const record = lines.at(-1)!;
      const of = (type: string) => lines.filter((l) => l.type === type);

      // What the user saw: reasoning and text as recorded.
      expect(of("reasoning").map((l) => l.text).join("")).toBe(want.reasoning);
      expect(of("text").map((l) => l.text).join("")).toBe(want.text + (followed ? FOLLOW_UP.text : ""));

      // Usage: the recording's, plus the follow-up's.
      expect(record.usage.inputTokens).toBe(want.usage.input + (followed ? FOLLOW_UP.usage.input : 0));
      expect(record.usage.outputTokens).toBe(want.usage.output + (followed ? FOLLOW_UP.usage.output : 0));
      expect(record.usage.cachedInputTokens ?? 0).toBe(want.usage.cached);

      if (want.error !== undefined) {
        // An error inside the 200 stream: exit 1 with the server's words, never success, never sent again.
        expect(run.code).toBe(1);
        expect(record).toMatchObject({ status: "error", exitCode: 1 });
        expect(record.error).toStartWith("provider reported an error: ");
        expect(record.error).toContain(oneLine(want.error).slice(0, 120));
        expect(of("error")).toHaveLength(1);
        const sent = s.requests.filter((r) => r.wire === want.wire).length;
        expect(sent).toBe(early ? (of("notice").length > 0 ? ATTEMPTS : 1) : 1);
        return;
      }
      expect(record.truncated).toBe(want.cut);
      if (want.cut && !want.text && !followed) {
        expect(run.code).toBe(1);
        expect(record.status).toBe("error");
        return;
      }
      expect(run.code).toBe(0);
      expect(record).toMatchObject({ status: "success", exitCode: 0, text: followed ? FOLLOW_UP.text : want.text });

      // The tool calls, with the recorded ids and arguments; unknown names come back as tool errors.
      const shown = of("tool-call").map((l) => ({ id: l.id, name: l.tool, args: l.input }));
      expect(shown.map(({ name, args }) => ({ name, args }))).toEqual(want.calls.map(({ name, args }) => ({ name, args })));
      want.calls.forEach((c, i) => c.id && expect(shown[i]!.id).toBe(c.id));
      for (const call of shown) {
        const error = of("tool-error").find((l) => l.id === call.id);
        const result = of("tool-result").find((l) => l.id === call.id);
        expect(Boolean(error) || Boolean(result)).toBe(true);
        if (error) expect(error.error).toContain(call.name);
      }
      if (!followed) {
        expect(s.requests.filter((r) => r.wire === want.wire)).toHaveLength(1);
        return;
      }

      // The follow-up: well formed for this vendor (the vendor mode's strict checks ran on it too).
      const requests = s.requests.filter((r) => r.wire === want.wire);
      expect(requests).toHaveLength(2);
      const next = followUpOf(requests[1]!.body, want.wire);
      expect(next.calls).toEqual(shown);
      expect(next.results.map((r) => r.id)).toEqual(shown.map((c) => c.id));
      for (const call of shown) {
        const error = of("tool-error").find((l) => l.id === call.id);
        if (error) expect(next.results.find((r) => r.id === call.id)!.output).toContain(call.name);
      }
      if (want.wire === "responses") {
        // Every host but OpenAI's own is stateless to shiro: nothing stored, nothing referred to.
        for (const r of requests) expect(r.body.store).toBe(false);
        expect(JSON.stringify(requests[1]!.body)).not.toContain("item_reference");
      } else {
        if (want.reasoningContent) expect(next.assistant.reasoning_content).toBe(want.reasoningContent);
        if (want.signatures.length > 0) {
          const sent = (next.assistant.reasoning_details ?? []).filter((d: any) => d.type === "reasoning.encrypted").map((d: any) => d.data);
          expect(sent).toEqual(want.signatures);
        }
      }
    });
  }
});
