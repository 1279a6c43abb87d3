import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { APICallError, RetryError } from "ai";
import { MISSING_ITEM_NOTICE, isMissingItemError, missingItemId, missingItemNotice } from "../../lib/provider/missing-item.ts";
import { describeWithShared } from "../support/shared-fixtures.ts";

/** The recorded provider error bodies in `dir` (../shared/fixtures/openai/errors), with their HTTP status. */
const recordedErrors = (dir: string) =>
  readdirSync(dir)
    .filter((f) => /^\d{3}-.*\.json$/.test(f) && !f.endsWith(".headers.json"))
    .map((file) => ({ file, status: Number(file.slice(0, 3)), body: readFileSync(join(dir, file), "utf8") }));

const apiError = (statusCode: number, responseBody: string) =>
  new APICallError({ message: "request failed", url: "https://api.openai.com/v1/responses", requestBodyValues: {}, statusCode, responseBody, isRetryable: false });

describeWithShared("fixtures/openai/errors", "isMissingItemError on the recorded provider errors", (dir) => {
  const fixtures = recordedErrors(dir);
  test("every 404 'Item with id … not found' variant is recognised, with its item id", () => {
    const missing = fixtures.filter((f) => f.file.startsWith("404-item-not-found"));
    expect(missing.map((f) => f.file).sort()).toEqual(["404-item-not-found-store-false.json", "404-item-not-found-zdr.json", "404-item-not-found.json"]);
    for (const f of missing) {
      const error = apiError(f.status, f.body);
      expect({ file: f.file, missing: isMissingItemError(error) }).toEqual({ file: f.file, missing: true });
      expect(missingItemId(error)).toBe(JSON.parse(f.body).error.message.match(/'([^']+)'/)[1]);
    }
  });

  test("no other recorded error is mistaken for it", () => {
    for (const f of fixtures.filter((f) => !f.file.startsWith("404-item-not-found"))) {
      const status = f.status === 200 ? 400 : f.status; // the in-stream error surfaces as a 400 APICallError
      expect({ file: f.file, missing: isMissingItemError(apiError(status, f.body)) }).toEqual({ file: f.file, missing: false });
    }
  });

  test("found through the SDK's RetryError too", () => {
    const body = fixtures.find((f) => f.file === "404-item-not-found.json")!.body;
    const retry = new RetryError({ message: "failed after 3 attempts", reason: "maxRetriesExceeded", errors: [apiError(404, body)] });
    expect(isMissingItemError(retry)).toBe(true);
  });
});

describe("isMissingItemError", () => {
  const message = "Item with id 'msg_0ead8b004a3b165d0069436a6b6834819896da85b63b196a3f' not found.";

  test("needs a provider error with a 404 (or the SDK's in-stream 400) status", () => {
    expect(isMissingItemError(apiError(404, JSON.stringify({ error: { message } })))).toBe(true);
    expect(isMissingItemError(apiError(400, JSON.stringify({ error: { message } })))).toBe(true);
    expect(isMissingItemError(apiError(500, JSON.stringify({ error: { message } })))).toBe(false);
    expect(isMissingItemError(new Error(message))).toBe(false);
    expect(isMissingItemError(undefined)).toBe(false);
    expect(isMissingItemError("404")).toBe(false);
  });

  test("falls back to the error message when the body is not JSON or absent", () => {
    const error = new APICallError({ message, url: "u", requestBodyValues: {}, statusCode: 404 });
    expect(missingItemId(error)).toBe("msg_0ead8b004a3b165d0069436a6b6834819896da85b63b196a3f");
  });

  test("the notice is the spec's text", () => {
    expect(MISSING_ITEM_NOTICE).toBe("the provider no longer had part of this session stored. Re-sent the history inline and carried on.");
  });

  test("the notice claims lost state only when the provider said an item was not found", () => {
    expect(missingItemNotice(apiError(404, JSON.stringify({ error: { message } })))).toBe(MISSING_ITEM_NOTICE);
    expect(missingItemNotice(apiError(500, JSON.stringify({ error: { message: "server error" } })))).toBe(
      "the provider answered 500 to a request that pointed at stored items; sent the history inline instead",
    );
  });
});

describe("isMissingItemError for a request that carried item references", () => {
  const withRefs = { model: "m", input: [{ role: "user", content: "hi" }, { type: "item_reference", id: "fc_1" }] };
  const inline = { model: "m", input: [{ role: "user", content: "hi" }, { type: "function_call", call_id: "c", name: "f", arguments: "{}" }] };
  const failed = (statusCode: number, requestBodyValues: unknown, message = "whatever the server says") =>
    new APICallError({ message, url: "http://127.0.0.1:11434/v1/responses", requestBodyValues, statusCode, responseBody: JSON.stringify({ error: { message } }) });

  test("any 4xx/5xx in the server's own words: ollama's 400, vLLM's 500", () => {
    expect(isMissingItemError(failed(400, withRefs, 'input[1]: unknown input item type: "item_reference"'))).toBe(true);
    expect(isMissingItemError(failed(500, withRefs, "'role'"))).toBe(true);
    expect(isMissingItemError(failed(422, withRefs))).toBe(true);
    expect(isMissingItemError(new RetryError({ message: "failed", reason: "maxRetriesExceeded", errors: [failed(502, withRefs)] }))).toBe(true);
  });

  test("not when the request sent everything inline", () => {
    expect(isMissingItemError(failed(400, inline))).toBe(false);
    expect(isMissingItemError(failed(500, inline))).toBe(false);
    expect(isMissingItemError(failed(400, undefined))).toBe(false);
  });

  test("not for statuses that say nothing about the history: auth, rate limits, conflicts, timeouts", () => {
    for (const status of [401, 403, 408, 409, 429]) expect({ status, missing: isMissingItemError(failed(status, withRefs)) }).toEqual({ status, missing: false });
  });
});

describeWithShared("fixtures/openai/errors", "isMissingItemError leaves a context overflow alone", (dir) => {
  test("OpenAI's context_length_exceeded, even on a request with item references", () => {
    const withRefs = { input: [{ type: "item_reference", id: "msg_1" }] };
    for (const file of ["400-context-length-exceeded.json", "200-stream-error-context-length-exceeded.json"]) {
      const body = readFileSync(join(dir, file), "utf8");
      const error = new APICallError({ message: "failed", url: "u", requestBodyValues: withRefs, statusCode: 400, responseBody: body });
      expect({ file, missing: isMissingItemError(error) }).toEqual({ file, missing: false });
    }
  });
});
