import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { instructionsIn, toolOutputsIn, WIRES } from "../support/requests.ts";

const serve = useFakeServer();

const sessionsDir = (home: string) => join(home, ".shiro-neko", "sessions");
const onlySession = (home: string) => JSON.parse(readFileSync(join(sessionsDir(home), readdirSync(sessionsDir(home)).find((n) => n.endsWith(".json"))!), "utf8"));
const writeConfig = (home: string, config: object) => {
  mkdirSync(join(home, ".shiro-neko"), { recursive: true });
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify(config));
};

/** The tools a request offered, by name, on either wire. */
const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.name ?? t.function?.name);
/** The JSON schema of one offered tool's parameters. */
const paramsOf = (body: any, name: string) => {
  const tool = (body.tools ?? []).find((t: any) => (t.name ?? t.function?.name) === name);
  return tool?.parameters ?? tool?.function?.parameters;
};
/** The first user message of a request: the prompt for a subagent's requests. */
const firstUser = (body: any): string => {
  const list = Array.isArray(body.input) ? body.input : body.messages;
  const first = list.find((m: any) => m.role === "user");
  return typeof first.content === "string" ? first.content : first.content.map((c: any) => c.text ?? "").join("");
};

const PAGINATION = "Find where pagination offsets are computed in this repo. Report file:line.";

function workspace() {
  const cwd = tempDir("shiro-work-");
  mkdirSync(join(cwd, "src"));
  writeFileSync(join(cwd, "src", "page.ts"), "export const pageSize = 20;\nexport function offset(page: number) {\n  return page * pageSize;\n}\n");
  writeFileSync(join(cwd, "src", "list.ts"), "import { offset } from './page';\nexport const first = offset(0);\n");
  return cwd;
}

for (const { wire, flags } of WIRES) {
  describe(`subagents over ${wire}`, () => {
    test("a subagent's retry is told to the user, saying whose it is", async () => {
      const cwd = workspace();
      const s = await serve(
        { toolCalls: [{ id: "call_task1", name: "task", input: { description: "find the pagination code", prompt: PAGINATION } }] },
        { status: 429, headers: { "retry-after": "0.05" }, body: { error: { message: "slow down", type: "rate_limit" } }, when: { firstUser: PAGINATION } },
        { text: "In src/page.ts.", when: { firstUser: PAGINATION } },
        { text: "Found it." },
      );
      const run = await runShiro(["-p", "where is pagination?", "--json", ...flags], { baseURL: s.url, cwd });
      expect(run.code).toBe(0);
      const notices = jsonLines(run.stdout).filter((e) => e.type === "notice").map((e) => e.message);
      expect(notices).toEqual([expect.stringMatching(/^explore subagent "find the pagination code": .*429.*retrying in 50ms/)]);
    });

    test("an explore subagent searches on its own, read-only, and the parent reads only its report", async () => {
      const cwd = workspace();
      const home = tempDir();
      const report = "Offsets are computed in src/page.ts:2-3 (offset = page * pageSize).";
      const s = await serve(
        { toolCalls: [{ id: "call_task1", name: "task", input: { description: "find the pagination code", prompt: PAGINATION } }] },
        { toolCalls: [{ name: "grep", input: { pattern: "offset" } }], when: { firstUser: PAGINATION } },
        { toolCalls: [{ name: "read_file", input: { path: "src/page.ts" } }], when: { firstUser: PAGINATION } },
        { text: report, when: { firstUser: PAGINATION } },
        { text: "Pagination lives in src/page.ts." },
      );
      const run = await runShiro(["-p", "where is pagination?", "--json", ...flags], { baseURL: s.url, cwd, home });
      expect(run.code).toBe(0);

      // The subagent's three requests: its own prompt, its own system prompt, read-only tools, no task tool.
      const sub = s.requests.filter((r) => firstUser(r.body) === PAGINATION);
      expect(sub).toHaveLength(3);
      expect(instructionsIn(sub[0]!.body)).toContain("You are a subagent of shiro");
      expect(instructionsIn(sub[0]!.body)).not.toContain("task list");
      expect(toolNames(sub[0]!.body).sort()).toEqual(["git", "glob", "grep", "list_dir", "read_file"]);
      expect(toolOutputsIn(sub[2]!.body).join("\n")).toContain("return page * pageSize;");

      // The parent's follow-up holds the task call and the report, and nothing of the subagent's own calls.
      const parentLast = s.requests.at(-1)!.body;
      expect(toolOutputsIn(parentLast)).toEqual([report]);
      expect(JSON.stringify(parentLast)).not.toContain("src/page.ts\"}");
      expect(toolNames(parentLast)).toContain("task");

      const lines = jsonLines(run.stdout);
      const events = lines.filter((l) => String(l.type).startsWith("subagent-"));
      expect(events[0]).toEqual({ type: "subagent-start", id: "call_task1", index: 0, kind: "explore", description: "find the pagination code", model: "gpt-5-mini" });
      expect(events.filter((e) => e.type === "subagent-step" && e.tool).map((e) => [e.step, e.tool, e.subject])).toEqual([
        [1, "grep", "offset"],
        [2, "read_file", "src/page.ts"],
      ]);
      expect(events.at(-1)).toMatchObject({ type: "subagent-end", id: "call_task1", index: 0, status: "success", steps: 3 });
      const result = lines.at(-1)!;
      expect(result.type).toBe("result");
      expect(result.text).toBe("Pagination lives in src/page.ts.");
      expect(result.subagents.count).toBe(1);
      expect(result.subagents.usage.inputTokens).toBeGreaterThan(0);

      // The transcript is kept with the session, apart from its history, and sessions show shows it.
      const record = onlySession(home);
      expect(record.subagents).toHaveLength(1);
      expect(record.subagents[0]).toMatchObject({ callId: "call_task1", kind: "explore", status: "success", steps: 3 });
      expect(JSON.stringify(record.messages)).not.toContain('"grep"');
      const shown = await runShiro(["sessions", "show", record.id], { cwd, home });
      expect(shown.code).toBe(0);
      // Under the task call, before its result.
      const text = shown.stdout;
      const at = (part: string) => text.indexOf(part);
      expect(text).toContain("→ task find the pagination code\n  ↳ subagent explore · find the pagination code · success, 3 steps on gpt-5-mini (task call call_task1)\n      › Find where pagination");
      expect(text).toContain("      → read_file src/page.ts");
      expect(text).toContain(`      ${report}`);
      expect(at(`      ${report}`)).toBeLessThan(at("  ✓ task:"));
    });

    test("three explores given as tasks are all in flight at once, and their reports come back in order", async () => {
      const cwd = workspace();
      const prompts = ["Look for A in the repo.", "Look for B in the repo.", "Look for C in the repo."];
      const s = await serve(
        {
          toolCalls: [
            {
              name: "task",
              input: { tasks: prompts.map((prompt, i) => ({ description: `search part ${"ABC"[i]}`, prompt })) },
            },
          ],
        },
        // Held until all three subagents' first requests are waiting: proof they run at the same time.
        ...prompts.map((prompt, i) => ({ text: `found ${"ABC"[i]} at src/page.ts:${i + 1}`, when: { firstUser: prompt }, together: 3 })),
        { text: "all found" },
      );
      const run = await runShiro(["-p", "find A, B and C", "--json", ...flags], { baseURL: s.url, cwd });
      expect(run.code).toBe(0);
      expect(toolOutputsIn(s.requests.at(-1)!.body)).toEqual([
        [
          "## 1. search part A (explore)\n\nfound A at src/page.ts:1",
          "## 2. search part B (explore)\n\nfound B at src/page.ts:2",
          "## 3. search part C (explore)\n\nfound C at src/page.ts:3",
        ].join("\n\n"),
      ]);
      const lines = jsonLines(run.stdout);
      expect(lines.filter((l) => l.type === "subagent-start").map((l) => l.index).sort()).toEqual([0, 1, 2]);
      expect(lines.at(-1)!.subagents.count).toBe(3);
    });

    test("with maxParallelSubagents 1 the tasks wait their turn, one request at a time", async () => {
      const cwd = workspace();
      const home = tempDir();
      writeConfig(home, { maxParallelSubagents: 1 });
      const prompts = ["Look for A in the repo.", "Look for B in the repo."];
      const s = await serve(
        { toolCalls: [{ name: "task", input: { tasks: prompts.map((prompt, i) => ({ description: `search part ${i}`, prompt })) } }] },
        ...prompts.map((prompt) => ({ text: `report for ${prompt}`, when: { firstUser: prompt }, delayMs: 50 })),
        { text: "done" },
      );
      const run = await runShiro(["-p", "find", "--json", ...flags], { baseURL: s.url, cwd, home });
      expect(run.code).toBe(0);
      const kinds = jsonLines(run.stdout).filter((l) => l.type === "subagent-start" || l.type === "subagent-end").map((l) => `${l.type}:${l.index}`);
      expect(kinds).toEqual(["subagent-start:0", "subagent-end:0", "subagent-start:1", "subagent-end:1"]);
    });

    test("a subagent that reaches its step cap says so to the parent, and both histories stay valid", async () => {
      const cwd = workspace();
      const home = tempDir();
      writeConfig(home, { subagentMaxSteps: 2 });
      const s = await serve(
        { toolCalls: [{ name: "task", input: { description: "read everything", prompt: "Read every file." } }] },
        { toolCalls: [{ name: "list_dir", input: {} }], when: { firstUser: "Read every file." } },
        { text: "So far: src/ has two files.", toolCalls: [{ name: "read_file", input: { path: "src/page.ts" } }], when: { firstUser: "Read every file." } },
        { text: "The subagent ran out of steps." },
      );
      const run = await runShiro(["-p", "read it all", "--json", ...flags], { baseURL: s.url, cwd, home });
      expect(run.code).toBe(0);
      const [output] = toolOutputsIn(s.requests.at(-1)!.body);
      expect(output).toBe("Subagent stopped at its step cap (2 steps) before it finished; narrow the task or split it.\nWhat it had reported so far:\nSo far: src/ has two files.");
      expect(jsonLines(run.stdout).find((l) => l.type === "subagent-end")).toMatchObject({ status: "step-cap", steps: 2 });
      expect(onlySession(home).subagents[0].status).toBe("step-cap");
    });

    test("headless text mode leaves one summary line per subagent on stderr", async () => {
      const cwd = workspace();
      const s = await serve(
        { toolCalls: [{ name: "task", input: { description: "find the pager", prompt: "Find the pager." } }] },
        { toolCalls: [{ name: "glob", input: { pattern: "src/*.ts" } }], when: { firstUser: "Find the pager." }, usage: { input: 400, output: 20 } },
        { text: "src/page.ts:2", when: { firstUser: "Find the pager." }, usage: { input: 500, output: 10 } },
        { text: "It is in src/page.ts." },
      );
      const run = await runShiro(["-p", "where?", ...flags], { baseURL: s.url, cwd });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("It is in src/page.ts.\n");
      expect(run.stderr).toContain("→ task find the pager\n↳ explore · find the pager · ✓ done · 2 steps · 930 tokens\n  ✓ task: 1 report\n");
    });

    test("a subagent whose request fails gives the parent a result saying so, and the turn goes on", async () => {
      const cwd = workspace();
      const s = await serve(
        { toolCalls: [{ name: "task", input: { description: "look around", prompt: "Look around." } }] },
        { status: 400, body: { error: { message: "model exploded", type: "invalid_request_error", param: null, code: null } }, when: { firstUser: "Look around." } },
        { text: "The subagent failed; I will look myself." },
      );
      const run = await runShiro(["-p", "look", "--json", ...flags], { baseURL: s.url, cwd });
      expect(run.code).toBe(0);
      const [output] = toolOutputsIn(s.requests.at(-1)!.body);
      expect(output).toStartWith("Subagent failed: ");
      expect(output).toContain("model exploded");
      expect(jsonLines(run.stdout).find((l) => l.type === "subagent-end")).toMatchObject({ status: "error" });
      // The call's own line agrees with the subagent's ✗: no green check on a failure.
      expect(jsonLines(run.stdout).find((l) => l.type === "tool-result" && l.tool === "task")).toMatchObject({ summary: "failed: no report (error)" });
      const text = await runShiro(["-p", "again", ...flags], { baseURL: (await serve(...[
        { toolCalls: [{ name: "task", input: { description: "look around", prompt: "Look around." } }] },
        { status: 400, body: { error: { message: "model exploded", type: "invalid_request_error", param: null, code: null } }, when: { firstUser: "Look around." } },
        { text: "failed again" },
      ])).url, cwd });
      expect(text.stderr).toContain("  ✗ task: failed: no report (error)");
    });

    test("headless without --yolo no worker is offered; with --yolo it is, but never to a read-only agent", async () => {
      const cwd = workspace();
      const s = await serve({ text: "hi" }, { text: "hi again" }, { text: "planned" });
      expect((await runShiro(["-p", "hi", ...flags], { baseURL: s.url, cwd })).code).toBe(0);
      expect((await runShiro(["-p", "hi", "--yolo", ...flags], { baseURL: s.url, cwd })).code).toBe(0);
      expect((await runShiro(["-p", "plan it", "--yolo", "--agent", "plan", ...flags], { baseURL: s.url, cwd })).code).toBe(0);
      const kinds = (body: any) => paramsOf(body, "task").properties.kind.enum;
      expect(kinds(s.requests[0]!.body)).toEqual(["explore", "review"]);
      expect(kinds(s.requests[1]!.body)).toEqual(["explore", "review", "worker"]);
      expect(kinds(s.requests[2]!.body)).toEqual(["explore", "review"]);
      expect(s.requests[0]!.body.tools.find((t: any) => (t.name ?? t.function?.name) === "task")).toBeDefined();
    });

    test("a worker with --yolo edits a file (undone with the turn by shiro undo); a deny rule still refuses it", async () => {
      const cwd = workspace();
      const home = tempDir();
      writeConfig(home, { permission: { write_file: { "secret/**": "deny" } } });
      const s = await serve(
        { toolCalls: [{ name: "task", input: { kind: "worker", description: "bump the page size", prompt: "Set pageSize to 50 in src/page.ts, and write secret/x." } }] },
        { toolCalls: [{ name: "edit_file", input: { path: "src/page.ts", oldString: "pageSize = 20", newString: "pageSize = 50" } }], when: { firstUser: "Set pageSize" } },
        { toolCalls: [{ name: "write_file", input: { path: "secret/x", content: "no" } }], when: { firstUser: "Set pageSize" } },
        { text: "Changed src/page.ts:1; writing secret/x was refused.", when: { firstUser: "Set pageSize" } },
        { text: "done" },
      );
      const run = await runShiro(["-p", "bump it", "--yolo", "--json", ...flags], { baseURL: s.url, cwd, home });
      expect(run.code).toBe(0);
      expect(readFileSync(join(cwd, "src", "page.ts"), "utf8")).toStartWith("export const pageSize = 50;");
      const sub = s.requests.filter((r) => firstUser(r.body).startsWith("Set pageSize"));
      expect(instructionsIn(sub[0]!.body)).toContain("piece of work");
      expect(toolNames(sub[0]!.body)).toContain("edit_file");
      expect(toolNames(sub[0]!.body)).not.toContain("task");
      expect(toolOutputsIn(sub[2]!.body).at(-1)).toStartWith("Not run: ");
      expect(toolOutputsIn(s.requests.at(-1)!.body)).toEqual(["Changed src/page.ts:1; writing secret/x was refused."]);
      expect(readdirSync(cwd)).not.toContain("secret");
      // The refusal went to the subagent, and the run's record lists it with the parent's own.
      expect(jsonLines(run.stdout).at(-1)!.denied).toEqual([{ tool: "write_file", subject: "secret/x", reason: expect.stringContaining("deny") }]);

      const undo = await runShiro(["undo"], { cwd, home });
      expect(undo.code).toBe(0);
      expect(undo.stdout).toContain("restored src/page.ts");
      expect(readFileSync(join(cwd, "src", "page.ts"), "utf8")).toStartWith("export const pageSize = 20;");
    });

    test("subagentModel runs explore on another model of the same server; its tokens are priced at that model", async () => {
      const cwd = workspace();
      const home = tempDir();
      writeConfig(home, { subagentModel: "gpt-5-nano" });
      const s = await serve(
        { toolCalls: [{ name: "task", input: { description: "quick look", prompt: "Quick look." } }], usage: { input: 1000, output: 100 } },
        { text: "nothing here", when: { firstUser: "Quick look." }, usage: { input: 1_000_000, output: 0 } },
        { text: "ok", usage: { input: 1000, output: 100 } },
      );
      const run = await runShiro(["-p", "look", "--json", ...flags], { baseURL: s.url, cwd, home });
      expect(run.code).toBe(0);
      const sub = s.requests.find((r) => firstUser(r.body) === "Quick look.")!;
      expect(sub.body.model).toBe("gpt-5-nano");
      expect(s.requests[0]!.body.model).toBe("gpt-5-mini");
      const result = jsonLines(run.stdout).at(-1)!;
      expect(result.subagents.costUsd).toBeCloseTo(0.05, 6); // 1M input tokens at gpt-5-nano's $0.05
      expect(onlySession(home).subagents[0].model).toBe("gpt-5-nano");
    });

    test("subagent tokens count in the session's cost, and so against --max-spend", async () => {
      const cwd = workspace();
      const home = tempDir();
      const s = await serve(
        { toolCalls: [{ name: "task", input: { description: "big search", prompt: "Search widely." } }], usage: { input: 1000, output: 100 } },
        { text: "found it", when: { firstUser: "Search widely." }, usage: { input: 1_000_000, output: 0 } },
        { text: "ok", usage: { input: 1000, output: 100 } },
      );
      const first = await runShiro(["-p", "search", "--json", ...flags], { baseURL: s.url, cwd, home });
      expect(first.code).toBe(0);
      const record = onlySession(home);
      // 1M subagent input tokens at gpt-5-mini's $0.25, plus the parent's two small steps.
      expect(record.inputTokens).toBe(1_002_000);
      expect(record.costUsd).toBeGreaterThan(0.25);
      // Without the subagent the session would be far under $0.10; with it, the ceiling refuses the next turn.
      const refused = await runShiro(["-c", "-p", "more", "--max-spend", "0.10", ...flags], { baseURL: s.url, cwd, home });
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain("at or past its $0.1000 limit");
    });

    test("once subagents have cost the session its spend limit, no further subagent starts in that turn", async () => {
      const cwd = workspace();
      const home = tempDir();
      writeConfig(home, { maxParallelSubagents: 1 });
      const s = await serve(
        { toolCalls: [{ name: "task", input: { tasks: [{ description: "costly search", prompt: "Search A." }, { description: "second search", prompt: "Search B." }] } }], usage: { input: 1000, output: 10 } },
        { text: "found A", when: { firstUser: "Search A." }, usage: { input: 1_000_000, output: 0 } },
        { text: "stopping here", usage: { input: 1000, output: 10 } },
      );
      const run = await runShiro(["-p", "search", "--json", "--max-spend", "0.10", ...flags], { baseURL: s.url, cwd, home });
      expect(run.code).toBe(0);
      expect(s.requests.some((r) => firstUser(r.body) === "Search B.")).toBe(false);
      const [output] = toolOutputsIn(s.requests.at(-1)!.body);
      expect(output).toContain("## 1. costly search (explore)\n\nfound A");
      expect(output).toContain("## 2. second search (explore)\n\nSubagent was not started: the session has reached its spend limit");
      expect(jsonLines(run.stdout).at(-1)!.subagents.count).toBe(1);
    });

    test("with webFetch.readOnlyAgents explore and review are offered web_fetch and its call runs; without it they are not", async () => {
      const site = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("<html><body><main><h1>Paging API</h1><p>Offsets start at zero.</p></main></body></html>", { headers: { "content-type": "text/html" } }) });
      try {
        const host = `127.0.0.1:${site.port}`;
        const explorePrompt = "Read the paging API page and report what it says.";
        const reviewPrompt = "Review src/page.ts against the paging API.";
        const script = (fetches: boolean) => [
          { toolCalls: [{ name: "task", input: { tasks: [{ description: "read the docs", prompt: explorePrompt }, { description: "review paging", prompt: reviewPrompt, kind: "review" }] } }] },
          ...(fetches ? [{ toolCalls: [{ name: "web_fetch", input: { url: `http://${host}/paging` } }], when: { firstUser: explorePrompt } }] : []),
          { text: "The page says offsets start at zero.", when: { firstUser: explorePrompt } },
          { text: "No findings.", when: { firstUser: reviewPrompt } },
          { text: "done" },
        ];
        const readOnly = ["git", "glob", "grep", "list_dir", "read_file"];

        const cwd = workspace();
        const home = tempDir();
        writeConfig(home, { maxParallelSubagents: 1, webFetch: { readOnlyAgents: true, allowHosts: [host] }, permission: { web_fetch: { [`http://${host}/*`]: "allow" } } });
        const s = await serve(...script(true));
        const run = await runShiro(["-p", "check paging", "--json", ...flags], { baseURL: s.url, cwd, home });
        expect(run.code).toBe(0);
        const explore = s.requests.filter((r) => firstUser(r.body) === explorePrompt);
        const review = s.requests.filter((r) => firstUser(r.body) === reviewPrompt);
        expect(explore).toHaveLength(2);
        expect(review).toHaveLength(1);
        for (const request of [explore[0]!, review[0]!]) expect(toolNames(request.body).sort()).toEqual([...readOnly, "web_fetch"].sort());
        expect(toolOutputsIn(explore[1]!.body).join("\n")).toContain("# Paging API\n\nOffsets start at zero.");

        const plainHome = tempDir();
        writeConfig(plainHome, { maxParallelSubagents: 1, webFetch: { allowHosts: [host] } });
        const plain = await serve(...script(false));
        expect((await runShiro(["-p", "check paging", "--json", ...flags], { baseURL: plain.url, cwd, home: plainHome })).code).toBe(0);
        const plainSubs = plain.requests.filter((r) => [explorePrompt, reviewPrompt].includes(firstUser(r.body)));
        expect(plainSubs).toHaveLength(2);
        for (const request of plainSubs) expect(toolNames(request.body).sort()).toEqual(readOnly);
        // The main agent still has it either way.
        expect(toolNames(plain.requests[0]!.body)).toContain("web_fetch");
      } finally {
        site.stop(true);
      }
    });
  });
}
