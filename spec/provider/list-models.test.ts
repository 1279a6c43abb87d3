// listModels: what `GET /models` answered, as /model and shiro doctor read it, against real HTTP
// servers on this machine (each test's own), and the verdicts doctor draws from it.
import { afterEach, describe, expect, test } from "bun:test";
import { endpointCheck, modelCheck, noModelCheck, similarIds } from "../../lib/app/doctor.ts";
import { listModels, type ModelListing } from "../../lib/provider/list-models.ts";

let servers: ReturnType<typeof Bun.serve>[] = [];
afterEach(() => {
  for (const s of servers) s.stop(true);
  servers = [];
});

/** A server answering every request with `respond`; its base URL. */
function server(respond: (req: Request) => Response | Promise<Response>): string {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: respond });
  servers.push(s);
  return `http://127.0.0.1:${s.port}/v1`;
}

describe("listModels", () => {
  test("a list: every id in the server's order, with the window where an entry states one; the key sent as a bearer token", async () => {
    let auth: string | null | undefined;
    const baseURL = server((req) => {
      auth = req.headers.get("authorization");
      return Response.json({ object: "list", data: [{ id: "b", context_length: 32_768 }, { id: "a", max_model_len: 8_192 }, { id: "c" }, { nope: 1 }] });
    });
    const listing = await listModels({ baseURL, apiKey: "sk-x", timeoutMs: 2_000 });
    expect(listing).toEqual({ type: "list", models: [{ id: "b", contextWindow: 32_768 }, { id: "a", contextWindow: 8_192 }, { id: "c" }] });
    expect(auth).toBe("Bearer sk-x");
  });

  test("a 404, a refused key and a body that is no list are each an answer without a list", async () => {
    const missing = server(() => new Response("404 page not found", { status: 404 }));
    expect(await listModels({ baseURL: missing, timeoutMs: 2_000 })).toEqual({ type: "no-list", status: 404, why: `${missing}/models answered HTTP 404` });
    const locked = server(() => Response.json({ error: "bad key" }, { status: 401 }));
    expect(await listModels({ baseURL: locked, timeoutMs: 2_000 })).toMatchObject({ type: "no-list", status: 401, why: `${locked}/models refused the key (HTTP 401)` });
    const odd = server(() => new Response("<html>hello</html>"));
    expect(await listModels({ baseURL: odd, timeoutMs: 2_000 })).toMatchObject({ type: "no-list", status: 200 });
  });

  test("a server that does not answer in time is unreachable, said in seconds", async () => {
    const slow = server(() => new Promise(() => {}));
    const started = Date.now();
    expect(await listModels({ baseURL: slow, timeoutMs: 300 })).toEqual({ type: "unreachable", why: `${slow} did not answer within 0.3 s` });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("doctor's verdicts on a listing", () => {
  const list: ModelListing = { type: "list", models: [{ id: "gpt-5-mini" }, { id: "gpt-4.1" }, { id: "o3" }] };

  test("a server with no list still answers, and its model is not checked; a refused key fails", () => {
    expect(endpointCheck("http://h/v1", { type: "no-list", status: 404, why: "x" }).mark).toBe("ok");
    expect(modelCheck("m", { type: "no-list", status: 404, why: "x" })?.mark).toBe("ok");
    expect(endpointCheck("http://h/v1", { type: "no-list", status: 401, why: "x" }).mark).toBe("fail");
    expect(modelCheck("m", { type: "no-list", status: 401, why: "x" })).toBeUndefined();
  });

  test("a model off the list fails and names the ids that begin like it", () => {
    expect(modelCheck("gpt-5-mini", list)?.mark).toBe("ok");
    const off = modelCheck("gpt-5-nano", list)!;
    expect(off.mark).toBe("fail");
    expect(off.fix).toContain("(gpt-5-mini)");
    expect(similarIds("qwen2.5", ["qwen2.5-7b", "qwen2.5-coder", "llama3"])).toEqual(["qwen2.5-7b", "qwen2.5-coder"]);
    expect(similarIds("zz", ["qwen2.5-7b"])).toEqual([]);
  });

  test("an empty list (an ollama with nothing pulled) says so, and how to get a model", () => {
    const none = modelCheck("qwen3", { type: "list", models: [] })!;
    expect(none).toMatchObject({ mark: "fail", text: "model qwen3: the server lists no models at all" });
    expect(none.fix).toContain("ollama pull");
    expect(none.fix).not.toContain("use one it offers");
    expect(noModelCheck("ollama", { type: "list", models: [] })).toMatchObject({ mark: "fail", text: "model: none chosen, ollama has no default one, and the server lists no models at all", fix: expect.stringContaining("ollama pull") });
  });
});
