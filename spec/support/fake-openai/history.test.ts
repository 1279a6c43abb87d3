// Strictness of the fake, exercised with hand-built request bodies (raw fetch): each broken history gets the
// real status and body, is recorded in `errors`, and consumes no scripted reply.
import { afterEach, describe, expect, test } from "bun:test";
import { startFakeServer } from "../fake-openai.ts";
import { outputItems, post } from "./testing.ts";
import type { FakeServer, Reply } from "./types.ts";

let server: FakeServer;
afterEach(() => server?.close());

const user = (text: string) => ({ role: "user", content: [{ type: "input_text", text }] });

/** Run one streamed Responses turn and return its output items (rs_/msg_/fc_). */
async function turn(reply: Reply, extra: Record<string, unknown> = {}) {
  server.push(reply);
  const res = await post(server, "/responses", { model: "gpt-test", stream: true, input: [user("hi")], ...extra });
  expect(res.status).toBe(200);
  return outputItems(res.events);
}

async function accepted(path: string, body: Record<string, unknown>) {
  server.push({ text: "ok" });
  const known = server.errors.length;
  const res = await post(server, path, { model: "gpt-test", stream: true, ...body });
  expect({ status: res.status, newErrors: server.errors.slice(known) }).toEqual({ status: 200, newErrors: [] });
}

async function rejected(path: string, body: Record<string, unknown>, status: number, message: string | RegExp) {
  server.push({ text: "must not be consumed" });
  const before = { pending: server.pending(), errors: server.errors.length, requests: server.requests.length };
  const res = await post(server, path, { model: "gpt-test", stream: true, ...body });
  expect(res.status).toBe(status);
  expect(Object.keys(res.json.error)).toEqual(["message", "type", "param", "code"]);
  expect(res.json.error.type).toBe("invalid_request_error");
  if (typeof message === "string") expect(res.json.error.message).toBe(message);
  else expect(res.json.error.message).toMatch(message);
  expect(res.text).toStartWith('{\n  "error": {'); // pretty-printed like the real API
  expect(server.errors).toHaveLength(before.errors + 1);
  expect(server.pending()).toBe(before.pending);
  expect(server.requests).toHaveLength(before.requests + 1);
  return res.json.error;
}

describe("responses history validation", () => {
  test("function_call_output without its function_call → 400", async () => {
    server = await startFakeServer();
    const error = await rejected(
      "/responses",
      { input: [user("hi"), { type: "function_call_output", call_id: "call_nope", output: "x" }] },
      400,
      "No tool call found for function call output with call_id call_nope.",
    );
    expect([error.param, error.code]).toEqual(["input", null]);
  });

  test("function_call without a later function_call_output → 400", async () => {
    server = await startFakeServer();
    const call = { type: "function_call", call_id: "call_lonely", name: "f", arguments: "{}" };
    await rejected("/responses", { input: [user("hi"), call] }, 400, "No tool output found for function call call_lonely.");
    // The output must come after the call, not before it.
    const output = { type: "function_call_output", call_id: "call_lonely", output: "x" };
    await rejected("/responses", { input: [user("hi"), output, call] }, 400, /^No tool call found/);
    await accepted("/responses", { input: [user("hi"), call, output] });
  });

  test("item ids this server never issued → 404, by reference or inline", async () => {
    server = await startFakeServer();
    await rejected("/responses", { input: [user("hi"), { type: "item_reference", id: "msg_unknown" }] }, 404, "Item with id 'msg_unknown' not found.");
    const other = await startFakeServer();
    other.push({ text: "elsewhere" });
    const res = await post(other, "/responses", { model: "gpt-test", stream: true, input: "hi" });
    const [foreign] = outputItems(res.events);
    await other.close();
    await rejected("/responses", { input: [user("hi"), foreign] }, 404, `Item with id '${foreign.id}' not found.`);
  });

  test("a function_call referenced by item_reference pairs with its output by call_id", async () => {
    server = await startFakeServer();
    const [fc] = await turn({ toolCalls: [{ name: "f", input: {} }] });
    const output = { type: "function_call_output", call_id: fc.call_id, output: "done" };
    await accepted("/responses", { input: [user("hi"), { type: "item_reference", id: fc.id }, output] });
    await rejected("/responses", { input: [user("hi"), { type: "item_reference", id: fc.id }] }, 400, `No tool output found for function call ${fc.call_id}.`);
  });

  test("message / function_call referenced without their reasoning item → 400", async () => {
    server = await startFakeServer();
    const [rs, msg, fc] = await turn({ reasoning: "think", text: "answer", toolCalls: [{ name: "f", input: { a: 1 } }] });
    expect([rs.type, msg.type, fc.type]).toEqual(["reasoning", "message", "function_call"]);
    const output = { type: "function_call_output", call_id: fc.call_id, output: "1" };
    const ref = (id: string) => ({ type: "item_reference", id });

    await rejected("/responses", { input: [user("hi"), ref(msg.id), fc, output] }, 400,
      `Item '${msg.id}' of type 'message' was provided without its required 'reasoning' item: '${rs.id}'.`);
    await rejected("/responses", { input: [user("hi"), fc, output] }, 400,
      `Item '${fc.id}' of type 'function_call' was provided without its required 'reasoning' item: '${rs.id}'.`);
    // With the reasoning item before them (by reference or inline with its id), the same items validate.
    await accepted("/responses", { input: [user("hi"), ref(rs.id), ref(msg.id), fc, output] });
    await accepted("/responses", { input: [user("hi"), rs, msg, ref(fc.id), output] });
  });

  test("a reasoning item without the item that followed it → 400", async () => {
    server = await startFakeServer();
    const [rs] = await turn({ reasoning: "think", text: "answer" });
    await rejected("/responses", { input: [user("hi"), { type: "item_reference", id: rs.id }, user("next")] }, 400,
      `Item '${rs.id}' of type 'reasoning' was provided without its required following item.`);
  });

  test("the same item twice → 400 duplicate", async () => {
    server = await startFakeServer();
    const [msg] = await turn({ text: "answer" });
    const ref = { type: "item_reference", id: msg.id };
    await rejected("/responses", { input: [user("hi"), ref, ref, user("next")] }, 400, /^Duplicate item found with id msg_/);
  });

  test("items from a store:false response can't be referenced by id alone → 404 store-false text", async () => {
    server = await startFakeServer();
    const [rs, msg] = await turn({ reasoning: "think", text: "answer" }, { store: false, include: ["reasoning.encrypted_content"] });
    expect(rs.encrypted_content).toStartWith("gAAAAA");
    await rejected("/responses", { input: [user("hi"), { type: "item_reference", id: rs.id }, { type: "item_reference", id: msg.id }] }, 404,
      /^Item with id 'rs_[0-9a-f]+' not found\. Items are not persisted when `store` is set to false\./);
    await rejected("/responses", { input: [user("hi"), { ...rs, encrypted_content: undefined }, { role: "assistant", content: "answer" }] }, 404,
      /Items are not persisted when `store` is set to false/);
    // Inline with its encrypted content, as the SDK sends it with store:false, is fine.
    await accepted("/responses", { store: false, input: [user("hi"), rs, { role: "assistant", content: "answer" }, user("next")] });
  });

  test("forgetItems() makes every earlier id unknown, later ones still work", async () => {
    server = await startFakeServer();
    const [old] = await turn({ text: "old" });
    server.forgetItems();
    await rejected("/responses", { input: [user("hi"), { type: "item_reference", id: old.id }] }, 404, `Item with id '${old.id}' not found.`);
    const [fresh] = await turn({ text: "new" });
    await accepted("/responses", { input: [user("hi"), { type: "item_reference", id: fresh.id }, user("more")] });
    expect(server.errors[0]).toContain("forgetItems");
  });

  test("previous_response_id must name a stored response; its calls must be answered", async () => {
    server = await startFakeServer();
    server.push({ toolCalls: [{ name: "f", input: {}, id: "call_chain00000000000001" }] });
    const res = await post(server, "/responses", { model: "gpt-test", stream: true, input: "hi" });
    const responseId = res.events[0]!.data.response.id;
    await rejected("/responses", { previous_response_id: "resp_nope", input: [user("hi")] }, 404, "Previous response with id 'resp_nope' not found.");
    await rejected("/responses", { previous_response_id: responseId, input: [user("next")] }, 400, "No tool output found for function call call_chain00000000000001.");
    await accepted("/responses", { previous_response_id: responseId, input: [{ type: "function_call_output", call_id: "call_chain00000000000001", output: "x" }] });
  });

  test("instructions and system/developer messages are both accepted", async () => {
    server = await startFakeServer();
    await accepted("/responses", { instructions: "Be brief.", input: [{ role: "system", content: "sys" }, { role: "developer", content: "dev" }, user("hi")] });
    await accepted("/responses", { input: "plain string input" });
  });
});

describe("chat history validation", () => {
  const call = (id: string) => ({ id, type: "function", function: { name: "f", arguments: "{}" } });
  const assistantCalls = (...ids: string[]) => ({ role: "assistant", content: null, tool_calls: ids.map(call) });
  const toolMsg = (id: string) => ({ role: "tool", tool_call_id: id, content: "ok" });

  test("a tool message answering no open call → 400", async () => {
    server = await startFakeServer();
    const error = await rejected("/chat/completions", { messages: [{ role: "user", content: "hi" }, toolMsg("call_x")] }, 400,
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.");
    expect(error.param).toBe("messages.[1].role");
  });

  test("assistant tool_calls not all answered before the next message (or the end) → 400", async () => {
    server = await startFakeServer();
    const prefix = "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'.";
    await rejected("/chat/completions", { messages: [{ role: "user", content: "hi" }, assistantCalls("call_a", "call_b"), toolMsg("call_a"), { role: "user", content: "next" }] }, 400,
      `${prefix} The following tool_call_ids did not have response messages: call_b`);
    await rejected("/chat/completions", { messages: [{ role: "user", content: "hi" }, assistantCalls("call_a")] }, 400, `${prefix} The following tool_call_ids did not have response messages: call_a`);
    await accepted("/chat/completions", { messages: [{ role: "system", content: "s" }, { role: "user", content: "hi" }, assistantCalls("call_a", "call_b"), toolMsg("call_b"), toolMsg("call_a")] });
  });
});

describe("requests the fake does not serve", () => {
  test("other paths and methods → 404, recorded with wire 'other'", async () => {
    server = await startFakeServer({ replies: [{ text: "kept" }] });
    const res = await post(server, "/completions", { model: "gpt-test", prompt: "hi" });
    expect(res.status).toBe(404);
    expect((await fetch(server.url + "/models")).status).toBe(404);
    expect(server.requests.map((r) => [r.wire, r.method, r.path])).toEqual([["other", "POST", "/v1/completions"], ["other", "GET", "/v1/models"]]);
    expect(server.errors).toHaveLength(2);
    expect(server.pending()).toBe(1);
  });

  test("invalid JSON and a missing model → 400", async () => {
    server = await startFakeServer({ replies: [{ text: "kept" }] });
    const bad = await fetch(server.url + "/responses", { method: "POST", body: "{oops" });
    expect(bad.status).toBe(400);
    expect(server.requests[0]!.body).toBe("{oops");
    expect((await post(server, "/chat/completions", { messages: [] })).json.error.message).toBe("you must provide a model parameter");
    expect(server.errors).toHaveLength(2);
    expect(server.pending()).toBe(1);
  });
});
