import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { toolOutputsIn, WIRES } from "../support/requests.ts";
import { startHttpMcpServer } from "../support/mcp/http-server.ts";
import { startSseMcpServer } from "../support/mcp/sse-server.ts";

setDefaultTimeout(30_000);
const serve = useFakeServer();
const DEMO = join(import.meta.dir, "..", "support", "mcp", "demo-server.ts");
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** A local demo server entry: bun runs the project's own stdio MCP server with these flags. */
const demo = (...flags: string[]) => ({ command: process.execPath, args: [DEMO, ...flags] });

function homeWithConfig(config: unknown): string {
  const home = tempDir();
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify(config));
  return home;
}

/** The tool names a request offered, on either wire. */
function toolNamesIn(body: any): string[] {
  return (body.tools ?? []).map((t: any) => t.name ?? t.function?.name);
}

for (const { wire, flags } of WIRES) {
  describe(`MCP servers over ${wire}`, () => {
    test("a local server's tools are offered as mcp__<server>__<tool>, and a call's result reaches the model", async () => {
      const home = homeWithConfig({ mcpServers: { demo: { ...demo(), allow: ["echo"] } } });
      const s = await serve({ toolCalls: [{ name: "mcp__demo__echo", input: { text: "hello from the test" } }] }, { text: "it said hello" });
      const run = await runShiro(["-p", "use the demo", "--json", ...flags], { baseURL: s.url, home });
      expect(run.code).toBe(0);
      const offered = toolNamesIn(s.requests[0]!.body);
      expect(offered).toContain("mcp__demo__echo");
      expect(offered).toContain("read_file");
      expect(toolOutputsIn(s.requests[1]!.body).join("")).toBe("echo: hello from the test");
      expect(jsonLines(run.stdout).at(-1)!.text).toBe("it said hello");
    });

    test("a remote server over streamable HTTP, with headers from the environment; images become a note, links name the resource", async () => {
      const http = startHttpMcpServer();
      stops.push(http.stop);
      const home = homeWithConfig({ mcpServers: { web: { url: http.url, headers: { Authorization: "Bearer ${DEMO_TOKEN}" } } } });
      const s = await serve({ toolCalls: [{ name: "mcp__web__picture", input: {} }] }, { text: "a cat" });
      const run = await runShiro(["-p", "draw", "--yolo", ...flags], { baseURL: s.url, home, env: { DEMO_TOKEN: "t0ken" } });
      expect(run.code).toBe(0);
      expect(toolNamesIn(s.requests[0]!.body)).toContain("mcp__web__echo");
      const output = toolOutputsIn(s.requests[1]!.body).join("");
      expect(output).toContain("[image (image/png, 16 bytes) returned by the tool; not shown here]");
      expect(output).toContain("[resource link: cat.png <file:///pictures/cat.png> image/png]");
      expect(http.headers.some((h) => h.authorization === "Bearer t0ken")).toBe(true);
    });
  });
}

describe("MCP servers, headless", () => {
  test("an MCP tool asks by default, so headless it is refused unless allowed (config allow, rules or --yolo)", async () => {
    const home = homeWithConfig({ mcpServers: { demo: demo() } });
    const s = await serve({ toolCalls: [{ name: "mcp__demo__echo", input: { text: "x" } }] }, { text: "refused" });
    const run = await runShiro(["-p", "go", "--json"], { baseURL: s.url, home });
    expect(jsonLines(run.stdout).at(-1)!.denied.map((d: any) => d.tool)).toEqual(["mcp__demo__echo"]);
    const ruled = homeWithConfig({ mcpServers: { demo: demo() }, permission: { "mcp__demo__*": "allow" } });
    s.push({ toolCalls: [{ name: "mcp__demo__echo", input: { text: "by rule" } }] }, { text: "ok" });
    await runShiro(["-p", "go"], { baseURL: s.url, home: ruled });
    expect(toolOutputsIn(s.requests[3]!.body).join("")).toBe("echo: by rule");
  });

  test("a server that changes its tool list mid-session: the next request offers the new list", async () => {
    const home = homeWithConfig({ mcpServers: { demo: { ...demo(), allow: ["*"] } } });
    const s = await serve(
      { toolCalls: [{ name: "mcp__demo__grow", input: {} }] },
      { toolCalls: [{ name: "mcp__demo__extra", input: {} }] },
      { text: "done" },
    );
    const run = await runShiro(["-p", "grow"], { baseURL: s.url, home });
    expect(run.code).toBe(0);
    expect(toolNamesIn(s.requests[0]!.body)).not.toContain("mcp__demo__extra");
    expect(toolNamesIn(s.requests[1]!.body)).toContain("mcp__demo__extra");
    expect(toolOutputsIn(s.requests[2]!.body).at(-1)).toBe("extra ran");
  });

  test("a server that cannot start is reported in one line and the session goes on without it", async () => {
    const home = homeWithConfig({ mcpServers: { broken: demo("--fail"), demo: { ...demo(), allow: ["*"] } } });
    const s = await serve({ text: "answered anyway" });
    const run = await runShiro(["-p", "hi"], { baseURL: s.url, home });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("answered anyway");
    const lines = run.stderr.split("\n").filter((l) => l.includes('"broken"'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("did not start");
    expect(lines[0]).toContain("missing DEMO_TOKEN");
    expect(toolNamesIn(s.requests[0]!.body)).toContain("mcp__demo__echo");
    expect(toolNamesIn(s.requests[0]!.body).some((n) => n.startsWith("mcp__broken__"))).toBe(false);
  });

  test("a server's words when it cannot start reach the screen without escape sequences (the notice and shiro doctor)", async () => {
    const home = homeWithConfig({ mcpServers: { broken: demo("--fail", "--fail-says", "demo: bad\x1b]0;owned\x07\x1b[2J token") } });
    const s = await serve({ text: "ok" });
    const run = await runShiro(["-p", "hi"], { baseURL: s.url, home });
    expect(run.code).toBe(0);
    const line = run.stderr.split("\n").find((l) => l.includes('"broken"'))!;
    expect(line).toContain("demo: bad");
    expect(line).toContain("token");
    expect(run.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    const doctor = await runShiro(["doctor"], { home });
    expect(doctor.stdout).toContain("broken (");
    expect(doctor.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
  });

  test("what a server that dies writes on stderr is in the notice without its escape sequences", async () => {
    const home = homeWithConfig({ mcpServers: { demo: { ...demo("--crash-says", "demo: out of \x1b]0;owned\x07\x1b[2Jmemory"), allow: ["*"] } } });
    const s = await serve({ toolCalls: [{ name: "mcp__demo__crash", input: {} }] }, { text: "done" });
    const run = await runShiro(["-p", "crash it"], { baseURL: s.url, home });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("demo: out of memory");
    expect(run.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
  });

  test("a server that does not answer within its timeoutMs is reported failed, and headless does not wait longer for it", async () => {
    const home = homeWithConfig({ mcpServers: { slow: { ...demo("--slow-init", "8000"), timeoutMs: 500 } } });
    const s = await serve({ text: "went ahead" });
    const started = Date.now();
    const run = await runShiro(["-p", "hi"], { baseURL: s.url, home });
    expect(run.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(run.stderr).toContain('MCP server "slow" did not start: no answer within 0.5 s (its "timeoutMs")');
    expect(toolNamesIn(s.requests[0]!.body).some((n) => n.startsWith("mcp__"))).toBe(false);
  });

  test("a server that dies mid-call gives the model an error result and is restarted once", async () => {
    const starts = join(tempDir(), "starts.log");
    const home = homeWithConfig({ mcpServers: { demo: { ...demo("--starts", starts), allow: ["*"] } } });
    const s = await serve(
      { toolCalls: [{ name: "mcp__demo__crash", input: {} }] },
      { toolCalls: [{ name: "mcp__demo__echo", input: { text: "after the restart" } }] },
      { toolCalls: [{ name: "mcp__demo__crash", input: {} }] },
      { text: "done" },
    );
    const run = await runShiro(["-p", "crash it"], { baseURL: s.url, home });
    expect(run.code).toBe(0);
    expect(toolOutputsIn(s.requests[1]!.body).join("")).toMatch(/the MCP server \\?"demo\\?" stopped during the call/);
    expect(toolOutputsIn(s.requests[2]!.body).at(-1)).toBe("echo: after the restart");
    // The second death is the last: no third start, and the server's tools are no longer offered.
    expect(toolOutputsIn(s.requests[3]!.body).at(-1)).toContain("stopped during the call, so it has no result.");
    expect(toolOutputsIn(s.requests[3]!.body).at(-1)).not.toContain("starting it again");
    expect(toolNamesIn(s.requests[3]!.body).some((n) => n.startsWith("mcp__demo__"))).toBe(false);
    expect(readFileSync(starts, "utf8").trim().split("\n")).toHaveLength(2);
    expect(run.stderr).toContain('MCP server "demo" stopped');
    expect(run.stderr).toContain("restarting it once");
    expect(run.stderr).toContain("it is not restarted");
  });

  test("past the budget (25 tools) only mcp_search and mcp_call are offered, and a call through them works", async () => {
    const home = homeWithConfig({ mcpServers: { demo: { ...demo("--tools", "25"), allow: ["tool_*"] } } });
    const s = await serve(
      { toolCalls: [{ name: "mcp_search", input: { query: "weather region 07" } }] },
      { toolCalls: [{ name: "mcp_call", input: { name: "mcp__demo__tool_07", arguments: { city: "Oslo" } } }] },
      { toolCalls: [{ name: "mcp_call", input: { name: "mcp__demo__echo", arguments: { text: "not allowed" } } }] },
      { text: "sunny" },
    );
    const run = await runShiro(["-p", "weather?", "--json"], { baseURL: s.url, home });
    expect(run.code).toBe(0);
    for (const request of s.requests) {
      const names = toolNamesIn(request.body);
      expect(names.filter((n) => n.startsWith("mcp"))).toEqual(["mcp_search", "mcp_call"]);
    }
    const found = toolOutputsIn(s.requests[1]!.body).join("");
    expect(JSON.parse(found.split("\n")[0]!)).toMatchObject({ name: "mcp__demo__tool_07", inputSchema: { properties: { city: { type: "string" } } } });
    expect(toolOutputsIn(s.requests[2]!.body).at(-1)).toBe("tool_07: sunny in Oslo");
    // mcp_call is judged as the tool it calls: echo is not in allow, so headless it is refused.
    const denied = jsonLines(run.stdout).at(-1)!.denied;
    expect(denied.map((d: any) => d.tool)).toEqual(["mcp_call"]);
    expect(denied[0].reason).toContain("mcp__demo__echo");
    // The tools part of every request is the same bytes: cache-stable.
    expect(new Set(s.requests.map((r) => JSON.stringify(r.body.tools))).size).toBe(1);
  });

  test("a project's .mcp.json is not used headless until trusted: one notice, nothing started; trustProjectMcp opts in", async () => {
    const work = tempDir();
    const starts = join(tempDir(), "starts.log");
    writeFileSync(join(work, ".mcp.json"), JSON.stringify({ mcpServers: { proj: { ...demo("--starts", starts), allow: ["*"] } } }));
    const s = await serve({ text: "without it" }, { text: "with it" });
    const run = await runShiro(["-p", "hi"], { baseURL: s.url, cwd: work });
    expect(run.code).toBe(0);
    const notices = run.stderr.split("\n").filter((l) => l.includes(".mcp.json"));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("not started: the file is not trusted");
    expect(toolNamesIn(s.requests[0]!.body).some((n) => n.startsWith("mcp"))).toBe(false);
    await Bun.sleep(300);
    expect(() => readFileSync(starts)).toThrow();

    const home = homeWithConfig({ trustProjectMcp: true });
    await runShiro(["-p", "hi"], { baseURL: s.url, cwd: work, home });
    expect(toolNamesIn(s.requests[1]!.body)).toContain("mcp__proj__echo");
  });

  test("an unknown field shape in mcpServers is a config error naming the field", async () => {
    const home = homeWithConfig({ mcpServers: { demo: { args: ["x"] } } });
    const run = await runShiro(["-p", "hi"], { baseURL: "http://127.0.0.1:9/v1", home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("mcpServers.demo");
    expect(run.stderr).toContain('"command"');
  });

  test("a misspelled field inside a server entry stops shiro with one line naming its path and the field meant; a project's .mcp.json with one is not used", async () => {
    const home = homeWithConfig({ mcpServers: { github: { command: "gh-mcp", evn: { GH: "1" } } } });
    const file = join(home, ".shiro-neko", "config.json");
    for (const args of [["config"], ["-p", "hi"]]) {
      const run = await runShiro(args, { baseURL: "http://127.0.0.1:9/v1", home });
      expect(run).toMatchObject({ code: 2, stdout: "" });
      expect(run.stderr).toBe(`shiro: config file ${file}: unknown field "mcpServers.github.evn". Did you mean env? See shiro help configuration.\n`);
    }

    const work = tempDir();
    writeFileSync(join(work, ".mcp.json"), JSON.stringify({ mcpServers: { proj: { ...demo(), allwo: ["*"] } } }));
    const s = await serve({ text: "ok" });
    const run = await runShiro(["-p", "hi"], { baseURL: s.url, cwd: work, home: homeWithConfig({ trustProjectMcp: true }) });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`${join(work, ".mcp.json")} cannot be used (unknown field "mcpServers.proj.allwo". Did you mean allow?); its MCP servers are not started.`);
    expect(toolNamesIn(s.requests[0]!.body).some((n) => n.startsWith("mcp"))).toBe(false);
  });
});

describe("MCP servers in shiro doctor and the SSE fallback", () => {
  test("shiro doctor starts each server and reports its state, tool count or error; an untrusted .mcp.json is named, not started", async () => {
    const work = tempDir();
    writeFileSync(join(work, ".mcp.json"), JSON.stringify({ mcpServers: { proj: demo() } }));
    const home = homeWithConfig({ mcpServers: { demo: demo(), broken: demo("--fail"), off: { ...demo(), enabled: false } } });
    const run = await runShiro(["doctor"], { cwd: work, home, env: { SHIRO_API_KEY: "sk-test" } });
    expect(run.stdout).toContain("MCP servers:");
    expect(run.stdout).toContain("demo (stdio, from config): connected, 4 tools");
    expect(run.stdout).toMatch(/broken \(stdio, from config\): failed: .*missing DEMO_TOKEN/);
    expect(run.stdout).toContain('off (stdio, from config): disabled ("enabled": false)');
    expect(run.stdout).toContain("defines 1 MCP server (proj), not started: the file is not trusted");
  });

  test("headless waits a short while for a slow server, so its one turn has the tools", async () => {
    const home = homeWithConfig({ mcpServers: { slow: { ...demo("--slow-init", "1500"), allow: ["*"] } } });
    const s = await serve({ toolCalls: [{ name: "mcp__slow__echo", input: { text: "late but here" } }] }, { text: "ok" });
    const run = await runShiro(["-p", "go"], { baseURL: s.url, home });
    expect(run.code).toBe(0);
    expect(toolOutputsIn(s.requests[1]!.body).join("")).toBe("echo: late but here");
  });

  test("a remote server that only speaks the older SSE transport is reached through the fallback", async () => {
    const sse = startSseMcpServer();
    stops.push(sse.stop);
    const home = homeWithConfig({ mcpServers: { old: { url: sse.url, allow: ["echo"] } } });
    const s = await serve({ toolCalls: [{ name: "mcp__old__echo", input: { text: "over sse" } }] }, { text: "ok" });
    const run = await runShiro(["-p", "go"], { baseURL: s.url, home });
    expect(run.code).toBe(0);
    expect(toolOutputsIn(s.requests[1]!.body).join("")).toBe("echo: over sse");
  });
});
