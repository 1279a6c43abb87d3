// The HTTP side of the fake: routing, request capture, validation-before-consumption, and the four reply kinds.
// node:http rather than Bun.serve because faults need the raw socket: `reset` must really drop the connection
// mid-body and `hang` must flush headers before sending nothing (Bun.serve defers headers to the first chunk).
import http from "node:http";
import type { Socket } from "node:net";
import { chatFaultPrefix, chatFrame } from "./chat-wire.ts";
import { checkContextWindow } from "./context-limit.ts";
import { badJson, defaultErrorBody, missingField, missingModel, noReplyLeft, noReplyMatches, type Rejection, unknownRoute } from "./errors.ts";
import { requestId } from "./ids.ts";
import { entryFor, ItemStore, type ContextEntry, type IssuedItem } from "./items.ts";
import { isMetadataProbe, serveMetadata, type MetadataAnswer } from "./metadata.ts";
import { noteCachedTokens, PromptCache } from "./prompt-cache.ts";
import { classify, sleep } from "./reply.ts";
import { createGathering, pickReply } from "./routing.ts";
import { buildResponsesTurn, itemsInRawStream, responsesFailure, responsesFaultPrefix, responsesFrame } from "./responses-wire.ts";
import type { CapturedRequest, FakeServer, FaultReply, HttpErrorReply, Overflow, RawReply, Reply, StartOptions, StreamErrorReply, TurnReply } from "./types.ts";
import { validateChatRequest } from "./validate-chat.ts";
import { validateImages } from "./validate-images.ts";
import { validateResponsesRequest } from "./validate-responses.ts";
import { resolveTurn } from "./vendors/chat-kit.ts";
import { EchoLedger } from "./vendors/echo-rules.ts";
import { PLAIN, VENDORS } from "./vendors/index.ts";
import { applyChatQuirks, beforeFinish } from "./vendors/quirks.ts";
import { rejectItemReference, withoutItemIds } from "./vendors/stateless.ts";

/** Activity counters for the standalone runner (idle detection). */
export type ServerStats = { inflight: number; lastActivity: number };
export type InternalOptions = StartOptions & { onError?: (message: string) => void };

type Wire = CapturedRequest["wire"];
type Accepted = { wire: Exclude<Wire, "other">; body: any; context: ContextEntry[]; reply: Reply };

const GARBAGE_LINE = "data: {this is not JSON\n\n";

export async function createFakeServer(opts: InternalOptions = {}): Promise<{ server: FakeServer; stats: ServerStats }> {
  const queue: Reply[] = [...(opts.replies ?? [])];
  const requests: CapturedRequest[] = [];
  const errors: string[] = [];
  const overflows: Overflow[] = [];
  // No vendor: the plain OpenAI fake. A vendor brings its dialects, rules and metadata endpoints.
  const spec = opts.vendor ? VENDORS[opts.vendor] : PLAIN;
  const stateless = spec.responses.stateless;
  const ledger = new EchoLedger(spec.echo);
  const items = new ItemStore();
  // OpenAI's prompt caching, emulated for the plain fake and OpenAI's own servers (other vendors cache their own way).
  const promptCache = !opts.vendor || opts.vendor === "openai" || opts.vendor === "azure" ? new PromptCache() : undefined;
  const sockets = new Set<Socket>();
  const stats: ServerStats = { inflight: 0, lastActivity: Date.now() };
  let closed = false;
  const holdTimeoutMs = opts.holdTimeoutMs ?? 10_000;
  const gathering = createGathering(holdTimeoutMs);
  const byRequest = new WeakMap<http.IncomingMessage, CapturedRequest>();
  const captured = (req: http.IncomingMessage) => byRequest.get(req)!;

  const recordError = (message: string) => {
    errors.push(message);
    opts.onError?.(message);
  };

  const reject = (res: http.ServerResponse, r: Rejection) => {
    recordError(r.note);
    sendJson(res, r.status, r.body);
  };

  /** Parse, capture, route and validate. Returns undefined when the request was rejected (nothing consumed). */
  async function admit(req: http.IncomingMessage, res: http.ServerResponse): Promise<Accepted | undefined> {
    const text = await readBody(req);
    const method = req.method ?? "GET";
    const path = (req.url ?? "/").split("?")[0]!;
    const wire: Wire =
      method === "POST" && path === "/v1/responses"
        ? "responses"
        : method === "POST" && path === "/v1/chat/completions"
          ? "chat"
          : "other";
    let body: any = text === "" ? undefined : text;
    let parsed = false;
    try {
      body = JSON.parse(text);
      parsed = true;
    } catch {}
    const capture: CapturedRequest = { wire, method, path, headers: lowerCaseHeaders(req.headers), body };
    requests.push(capture);
    byRequest.set(req, capture);

    if (wire === "other") {
      // Metadata probes are answered (or refused with the server's own 404) without counting as violations.
      if (opts.vendor && isMetadataProbe(method, path))
        return void sendMetadata(res, serveMetadata(opts.vendor, method, path, parsed ? body : undefined, opts.models));
      return void reject(res, unknownRoute(method, path));
    }
    if (!parsed || body == null || typeof body !== "object") return void reject(res, badJson(path));
    if (typeof body.model !== "string" || body.model === "") return void reject(res, missingModel(path));

    let context: ContextEntry[] = [];
    if (wire === "chat") {
      if (!Array.isArray(body.messages)) return void reject(res, missingField(path, "messages"));
      const rejection = validateChatRequest(body) ?? validateImages(wire, body, opts.models) ?? ledger.check(body);
      if (rejection) return void reject(res, rejection);
    } else {
      const refused = stateless ? rejectItemReference(body) : undefined;
      if (refused) return void reject(res, refused);
      const result = validateResponsesRequest(stateless ? withoutItemIds(body) : body, items);
      if (!result.ok) return void reject(res, result.rejection);
      const badImage = validateImages(wire, body, opts.models);
      if (badImage) return void reject(res, badImage);
      context = result.context;
    }
    const over = checkContextWindow(wire, body, opts.models, opts.overflow ?? spec.overflow, spec.responses);
    if (over) {
      overflows.push(over.overflow);
      if (over.frames) void streamFrames(res, over.frames, 0, true);
      else sendJson(res, over.status, over.json);
      return undefined;
    }
    const at = pickReply(queue, body);
    if (at < 0) return void reject(res, queue.length === 0 ? noReplyLeft(requests.length) : noReplyMatches(requests.length, queue.length));
    const [reply] = queue.splice(at, 1);
    if (promptCache) noteCachedTokens(body, promptCache.admit(body));
    return { wire, body, context, reply: reply! };
  }

  /** Remember a response's output items so later requests may reference them (and chain to it). */
  function registerResponse(responseId: string | undefined, issued: IssuedItem[], a: Accepted) {
    const stored = !stateless && a.body.store !== false;
    for (const item of issued) items.issue(item);
    if (responseId) {
      const outputs = issued.map((item) => entryFor(item, "previous response", false));
      items.recordResponse({ id: responseId, stored, context: [...a.context, ...outputs] });
    }
  }

  async function answer(res: http.ServerResponse, socket: Socket, reply: Reply, a: Accepted) {
    const c = classify(reply);
    switch (c.kind) {
      case "http":
        return sendHttpError(res, c.reply, a.body.model);
      case "raw":
        if (a.wire === "responses" && (c.reply.status ?? 200) === 200) {
          const { responseId, issued } = itemsInRawStream(c.reply.raw, !stateless && a.body.store !== false);
          registerResponse(responseId, issued, a);
        }
        return sendRaw(res, c.reply);
      case "fault":
        return sendFault(res, socket, c.reply, a);
      case "stream-error":
        return sendStreamError(res, c.reply, a);
      case "turn":
        return sendTurn(res, c.reply, a);
    }
  }

  async function sendTurn(res: http.ServerResponse, reply: TurnReply, a: Accepted) {
    const stream = a.body.stream === true;
    if (a.wire === "responses") {
      const built = buildResponsesTurn(reply, a.body, spec.responses);
      registerResponse(built.id, built.issued, a);
      if (!stream) return sendJson(res, 200, built.final);
      return streamFrames(res, built.events.map(responsesFrame), reply.delayMs ?? 0, true);
    }
    const turn = resolveTurn(reply, a.body, spec.chat);
    ledger.record(turn);
    if (!stream) return sendJson(res, 200, spec.chat.completion(turn));
    return streamFrames(res, applyChatQuirks(spec.chat.stream(turn), opts.chatQuirks), reply.delayMs ?? 0, true);
  }

  // An error inside a 200 stream, after the reply's text, in the vendor's form. Issues no items.
  async function sendStreamError(res: http.ServerResponse, reply: StreamErrorReply, a: Accepted) {
    const error = reply.streamError;
    if (a.body.stream !== true) {
      const status = typeof error.code === "number" ? error.code : 500;
      return sendJson(res, status, { error: { message: error.message, type: error.type ?? "server_error", param: null, code: error.code ?? null } });
    }
    if (a.wire === "responses") {
      const events = responsesFailure(reply.text, a.body, error, error.form, spec.responses);
      return streamFrames(res, events.map(responsesFrame), 0, true);
    }
    const turn = resolveTurn({ text: reply.text ?? "" }, a.body, spec.chat);
    const frames = [...beforeFinish(spec.chat.stream(turn)), ...spec.chat.streamError(turn, error)];
    return streamFrames(res, applyChatQuirks(frames, opts.chatQuirks), 0, true);
  }

  // Fault streams issue nothing: the client never saw their items complete, so references to them 404.
  async function sendFault(res: http.ServerResponse, socket: Socket, reply: FaultReply, a: Accepted) {
    const prefix =
      a.wire === "responses"
        ? responsesFaultPrefix(reply.text, a.body, spec.responses).map(responsesFrame)
        : opts.vendor
          ? applyChatQuirks(beforeFinish(spec.chat.stream(resolveTurn({ text: reply.text ?? "" }, a.body, spec.chat))), opts.chatQuirks)
          : chatFaultPrefix(reply.text, a.body).map(chatFrame);
    switch (reply.fault) {
      case "hang":
        // Headers (and any text) then silence, until the client aborts or the server closes.
        return streamFrames(res, reply.text ? prefix : [], 0, false);
      case "truncate":
        return streamFrames(res, prefix, 0, true);
      case "malformed":
        return streamFrames(res, [...prefix, GARBAGE_LINE], 0, true);
      case "reset":
        await streamFrames(res, prefix, 0, false);
        // Let the text reach the client (and be shown) before the connection drops: 30 ms was too
        // short on a loaded machine, where the client then saw nothing and rightly tried again.
        await sleep(150);
        socket.destroy();
        return;
    }
  }

  async function streamFrames(res: http.ServerResponse, frames: string[], delayMs: number, end: boolean) {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-request-id": requestId(),
    });
    res.flushHeaders();
    for (let i = 0; i < frames.length; i++) {
      if (i > 0 && delayMs > 0) await sleep(delayMs);
      if (res.destroyed || closed) return;
      res.write(frames[i]);
    }
    if (end && !res.destroyed) res.end();
  }

  const httpServer = http.createServer((req, res) => {
    stats.inflight += 1;
    stats.lastActivity = Date.now();
    res.on("close", () => {
      stats.inflight -= 1;
      stats.lastActivity = Date.now();
    });
    void (async () => {
      try {
        const accepted = await admit(req, res);
        if (!accepted) return;
        const { reply } = accepted;
        if (reply.together && reply.together > 1 && !(await gathering.hold(reply.together))) {
          recordError(`a reply held for ${reply.together} requests in flight together was still alone after ${holdTimeoutMs}ms (request #${requests.indexOf(captured(req)) + 1})`);
        }
        await answer(res, req.socket, reply, accepted);
      } catch (error) {
        recordError(`fake server bug: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        if (!res.headersSent) sendJson(res, 500, defaultErrorBody(500, "unknown"));
        else res.destroy();
      }
    })();
  });
  httpServer.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (httpServer.address() as { port: number }).port;

  let closing: Promise<void> | undefined;
  const server: FakeServer = {
    url: `http://127.0.0.1:${port}/v1`,
    push: (...replies) => void queue.push(...replies),
    requests,
    errors,
    overflows,
    vendor: opts.vendor,
    pending: () => queue.length,
    forgetItems: () => items.forgetAll(),
    close() {
      closing ??= new Promise<void>((resolve) => {
        closed = true;
        for (const socket of sockets) socket.destroy(); // hanging streams included
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      });
      return closing;
    },
  };
  return { server, stats };
}

/** Start a fake server on 127.0.0.1 and a free port. */
export async function startFakeServer(opts?: StartOptions): Promise<FakeServer> {
  return (await createFakeServer(opts)).server;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", "x-request-id": requestId(), ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body, null, 2));
}

function sendMetadata(res: http.ServerResponse, answer: MetadataAnswer) {
  res.writeHead(answer.status, { "content-type": answer.contentType ?? "application/json", "x-request-id": requestId() });
  res.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
}

function sendHttpError(res: http.ServerResponse, reply: HttpErrorReply, model: string) {
  sendJson(res, reply.status, reply.body ?? defaultErrorBody(reply.status, model), reply.headers);
}

function sendRaw(res: http.ServerResponse, reply: RawReply) {
  res.writeHead(reply.status ?? 200, { "content-type": reply.contentType ?? "text/event-stream; charset=utf-8" });
  res.end(reply.raw);
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

function lowerCaseHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}
