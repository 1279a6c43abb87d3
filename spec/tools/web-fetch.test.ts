// web_fetch against a local server (Bun.serve on 127.0.0.1): what it refuses, what it returns.
import { afterAll, describe, expect, test } from "bun:test";
import { gzipSync } from "node:zlib";
import { toJsonSchema } from "@valibot/to-json-schema";
import { createWebFetchTool, WEB_FETCH_DEFAULTS } from "../../lib/tools/web-fetch.ts";
import { makeWorkspace, runTool, errorOf } from "./fixture.ts";

const page = `<!doctype html><html><head><title>Install guide</title><script>track()</script><style>p{}</style></head>
<body><nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
<main><h1>Installing</h1><p>Read <a href="/docs/setup">the setup notes</a> first.</p>
<h2>From npm</h2><pre><code class="language-sh">npm install widget</code></pre>
<ul><li>fast</li><li>small</li></ul></main><footer>Copyright</footer></body></html>`;

const server: Bun.Server<undefined> = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request): Promise<Response> {
    const url = new URL(request.url);
    switch (url.pathname) {
      case "/page":
        return new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } });
      case "/plain":
        return new Response("line one\nline <two>\n", { headers: { "content-type": "text/plain" } });
      case "/latin1":
        return new Response(new Uint8Array([...new TextEncoder().encode('<html><head><meta charset="iso-8859-1"></head><body><p>caf'), 0xe9, ...new TextEncoder().encode("</p></body></html>")]), { headers: { "content-type": "text/html" } });
      case "/json":
        return new Response('{"a":1}', { headers: { "content-type": "application/json" } });
      case "/gzip":
        return new Response(gzipSync("compressed text"), { headers: { "content-type": "text/plain", "content-encoding": "gzip" } });
      case "/image":
        return new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]), { headers: { "content-type": "image/png" } });
      case "/big":
        return new Response("x".repeat(200_000), { headers: { "content-type": "text/plain" } });
      case "/slow":
        await Bun.sleep(3_000);
        return new Response("late");
      case "/drip": {
        // Headers and a first chunk at once, then nothing for longer than the cap.
        const body = new ReadableStream({
          async start(controller) {
            controller.enqueue(new TextEncoder().encode("first chunk "));
            await Bun.sleep(3_000);
            controller.close();
          },
        });
        return new Response(body, { headers: { "content-type": "text/plain" } });
      }
      case "/to-page":
        return Response.redirect(`http://127.0.0.1:${server.port}/page`, 302);
      case "/to-private":
        return new Response(null, { status: 302, headers: { location: "http://10.0.0.1/secret" } });
      case "/to-loopback":
        return new Response(null, { status: 301, headers: { location: "http://127.0.0.2:1/admin" } });
      case "/to-file":
        return new Response(null, { status: 302, headers: { location: "file:///etc/passwd" } });
      case "/loop":
        return new Response(null, { status: 302, headers: { location: "/loop" } });
      default:
        return new Response("missing", { status: 404, headers: { "content-type": "text/plain" } });
    }
  },
});
afterAll(() => server.stop(true));

const local = `127.0.0.1:${server.port}`;
const base = `http://${local}`;
const ws = makeWorkspace();
afterAll(() => ws.cleanup());
const allowed = createWebFetchTool({ ...WEB_FETCH_DEFAULTS, allowHosts: [local] });
const fetchWith = (tool: ReturnType<typeof createWebFetchTool>, url: string) => runTool(tool, { url }, ws.ctx);

describe("web_fetch", () => {
  test("a loopback address is refused unless the host is allowed in config", async () => {
    const refused = await errorOf(fetchWith(createWebFetchTool(), `${base}/page`));
    expect(refused).toContain("loopback");
    expect(refused).toContain(`"allowHosts": ["${local}"]`);
    expect(await errorOf(fetchWith(createWebFetchTool(), "http://[::1]:9/"))).toContain("loopback");
    expect(await errorOf(fetchWith(createWebFetchTool(), "http://0x7f.1:9/"))).toContain("loopback");
    expect((await fetchWith(allowed, `${base}/plain`)).output).toContain("line one");
  });

  test("a name resolving to a private address is refused, whatever else it resolves to; the checked address is the one connected to", async () => {
    const both = createWebFetchTool(WEB_FETCH_DEFAULTS, async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "192.168.0.10", family: 4 },
    ]);
    expect(await errorOf(fetchWith(both, "http://intranet.example/"))).toContain("192.168.0.10, a private network");
    // Allowed by name: the resolver's first answer (here this machine) is pinned for the connection,
    // so the request reaches the local server though no real DNS knows the name.
    let asked = 0;
    const pinned = createWebFetchTool({ ...WEB_FETCH_DEFAULTS, allowHosts: [`docs.test:${server.port}`] }, async () => (asked++, [{ address: "127.0.0.1", family: 4 }]));
    const result = await fetchWith(pinned, `http://docs.test:${server.port}/plain`);
    expect(result.output).toContain("line one");
    expect(asked).toBe(1);
  });

  test("HTML comes back as Markdown: main content only, headings, absolute links, fenced code", async () => {
    const { output, summary } = await fetchWith(allowed, `${base}/page`);
    expect(output.split("\n")[0]).toBe(`${base}/page (HTTP 200, text/html)`);
    expect(output).toContain("# Install guide");
    expect(output).toContain("# Installing");
    expect(output).toContain("## From npm");
    expect(output).toContain(`[the setup notes](${base}/docs/setup)`);
    expect(output).toContain("```sh\nnpm install widget\n```");
    expect(output).toMatch(/- +fast/);
    for (const gone of ["track()", "Blog", "Copyright", "p{}"]) expect(output).not.toContain(gone);
    expect(summary).toBe("HTTP 200 · markdown");
  });

  test("other text passes through as it is; compressed bodies are unpacked; binary is refused", async () => {
    expect((await fetchWith(allowed, `${base}/plain`)).output).toEndWith("\n\nline one\nline <two>");
    expect((await fetchWith(allowed, `${base}/json`)).output).toEndWith('{"a":1}');
    expect((await fetchWith(allowed, `${base}/latin1`)).output).toEndWith("café");
    expect((await fetchWith(allowed, `${base}/gzip`)).output).toEndWith("compressed text");
    expect(await errorOf(fetchWith(allowed, `${base}/image`))).toContain("is image/png, not text");
    const missing = await fetchWith(allowed, `${base}/nope`);
    expect(missing.output).toContain("(HTTP 404, text/plain)");
  });

  test("redirects are followed, each hop checked: an allowed host redirecting to a private or loopback address is refused", async () => {
    const followed = await fetchWith(allowed, `${base}/to-page`);
    expect(followed.output).toContain(`(redirected from ${base}/to-page)`);
    expect(followed.output).toContain("# Installing");
    expect(await errorOf(fetchWith(allowed, `${base}/to-private`))).toContain("refused 10.0.0.1: it resolves to 10.0.0.1, a private network (10/8)");
    expect(await errorOf(fetchWith(allowed, `${base}/to-loopback`))).toContain("127.0.0.2, this machine (loopback)");
    expect(await errorOf(fetchWith(allowed, `${base}/to-file`))).toContain("only http and https");
    expect(await errorOf(fetchWith(allowed, `${base}/loop`))).toContain("more than 5 redirects");
  });

  test("the body is cut at maxBytes, and a slow page stops at timeoutMs", async () => {
    const small = createWebFetchTool({ ...WEB_FETCH_DEFAULTS, allowHosts: [local], maxBytes: 10_240 });
    const big = await fetchWith(small, `${base}/big`);
    expect(big.output).toContain("x".repeat(10_240) + "\n\n[web_fetch: the page was cut at 10 KB]");
    expect(big.output).not.toContain("x".repeat(10_241));
    expect(big.summary).toBe("HTTP 200 · cut");
    const quick = createWebFetchTool({ ...WEB_FETCH_DEFAULTS, allowHosts: [local], timeoutMs: 300 });
    const started = Date.now();
    expect(await errorOf(fetchWith(quick, `${base}/slow`))).toContain("took longer than 0.3s");
    expect(Date.now() - started).toBeLessThan(2_000);
    const dripping = Date.now();
    expect(await errorOf(fetchWith(quick, `${base}/drip`))).toContain("took longer than 0.3s");
    expect(Date.now() - dripping).toBeLessThan(2_000);
  });

  test("its schema stays small", () => {
    const tool = createWebFetchTool();
    const size = JSON.stringify({ name: tool.name, description: tool.description, parameters: toJsonSchema(tool.schema, { errorMode: "ignore" }) }).length;
    expect(size).toBeLessThanOrEqual(350);
  });
});
