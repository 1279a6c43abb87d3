// Stateless Responses servers (DeepSeek's /responses, vLLM, LM Studio, ollama, llama.cpp): they keep nothing
// between requests, answer `store: false` whatever was asked, and cannot resolve an `item_reference`.
// The rejection (a protocol error) is ollama's real answer: its request decoder knows no item type
// "item_reference" and gin's binding error goes back as a 400 in ollama's OpenAI error shape
// (ollama openai/responses.go unmarshalResponsesInputItem + middleware ResponsesMiddleware + openai.NewError).
// vLLM answered the same request with a 500 (`'role'`) before vllm-project/vllm#55974 made it a 400; a body
// that does NOT use OpenAI's "Item with id … not found" wording is the point: clients must not rely on it.
import { Rejection } from "../errors.ts";

export function rejectItemReference(body: any): Rejection | undefined {
  const input: any[] = Array.isArray(body.input) ? body.input : [];
  const at = input.findIndex((item) => item?.type === "item_reference");
  if (at < 0) return undefined;
  return new Rejection(
    400,
    { error: { message: `input[${at}]: unknown input item type: "item_reference"`, type: "invalid_request_error", param: null, code: null } },
    `stateless responses: input[${at}] is an item_reference (${String(input[at].id)}), but this server stores nothing`,
  );
}

/** The request as a stateless server reads it: ids on inline items mean nothing to it (so the fake's
 *  reasoning-pairing rules, which rest on stored items, do not apply), and nothing else changes. */
export function withoutItemIds(body: any): any {
  if (!Array.isArray(body.input)) return body;
  return { ...body, input: body.input.map((item: any) => (item && typeof item === "object" && "id" in item ? { ...item, id: undefined } : item)) };
}
