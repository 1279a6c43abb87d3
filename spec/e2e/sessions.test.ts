import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Reply } from "../support/fake-openai.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { jsonLines, runShiro, shiroCommand, shiroEnv, tempDir } from "../support/cli.ts";
import { HOST_INDEPENDENT_ENV } from "../support/host-tools.ts";
import { WIRES } from "../support/requests.ts";

const serve = useFakeServer();
const sessionsDir = (home: string) => join(home, ".shiro-neko", "sessions");
const sessionFiles = (home: string) => readdirSync(sessionsDir(home)).filter((n) => n.endsWith(".json"));
const readSession = (home: string, id: string) => JSON.parse(readFileSync(join(sessionsDir(home), `${id}.json`), "utf8"));

/** Text of all user messages in a request, whatever the wire. */
function userTexts(body: any): string[] {
  const items = Array.isArray(body.input) ? body.input : body.messages;
  return items
    .filter((m: any) => m.role === "user")
    .map((m: any) => (typeof m.content === "string" ? m.content : m.content.map((c: any) => c.text ?? "").join("")));
}

for (const { wire, flags } of WIRES) {
  describe(`sessions over ${wire}`, () => {
    test("a prompt sent again after a turn the provider failed (no answer at all) reaches the model once, and stays once in the session", async () => {
      const home = tempDir();
      const work = tempDir();
      const s = await serve({ status: 400, body: { error: { message: "Invalid model id", type: "invalid_request_error" } } }, { text: "answered on the second try" });
      const failed = await runShiro(["-p", "summarise the readme", ...flags], { baseURL: s.url, cwd: work, home });
      expect(failed.code).toBe(1);
      // `sessions show` says the prompt got no answer, and why.
      const id = sessionFiles(home)[0]!.replace(/\.json$/, "");
      const unanswered = await runShiro(["sessions", "show", id], { home, cwd: work });
      expect(unanswered.stdout).toMatch(/› summarise the readme\n {2}✗ no answer: provider returned 400: Invalid model id/);
      const again = await runShiro(["-c", "-p", "summarise the readme", ...flags], { baseURL: s.url, cwd: work, home });
      expect(again.code).toBe(0);
      const answered = await runShiro(["sessions", "show", id], { home, cwd: work });
      expect(answered.stdout).toContain("› summarise the readme\n\nanswered on the second try");
      expect(answered.stdout).not.toContain("no answer");
      expect(again.stdout).toBe("answered on the second try\n");
      expect(userTexts(s.requests[1]!.body)).toEqual(["summarise the readme"]);
      const [only] = sessionFiles(home);
      const record = JSON.parse(readFileSync(join(sessionsDir(home), only!), "utf8"));
      expect(record.messages.filter((m: any) => m.role === "user").map((m: any) => m.content)).toEqual(["summarise the readme"]);
      expect(s.errors).toEqual([]);
    });

    test("sessions show and export name a memory call by its note, as the live line did, not by its kind", async () => {
      const home = tempDir();
      const work = tempDir();
      const note = "Tests run with bun test, not npm test.";
      const s = await serve(
        { toolCalls: [{ name: "remember", input: { kind: "command", text: note } }, { name: "recall", input: { query: "bun test" } }] },
        { text: "noted" },
      );
      const run = await runShiro(["-p", "remember how tests run", ...flags], { baseURL: s.url, cwd: work, home });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(`→ remember ${note}`);
      const id = sessionFiles(home)[0]!.replace(/\.json$/, "");
      const show = await runShiro(["sessions", "show", id], { home, cwd: work });
      expect(show.stdout).toContain(`→ remember ${note}\n→ recall bun test\n  ✓ remember: saved (command)\n`);
      expect(show.stdout).not.toContain("→ remember command");
      const md = await runShiro(["sessions", "export", id, "--format", "md"], { home, cwd: work });
      expect(md.stdout).toContain(`- **remember** \`${note}\``);
      expect(s.errors).toEqual([]);
    });

    test("a session is titled with the prompt typed, not the text piped after it; the model still gets both", async () => {
      const home = tempDir();
      const work = tempDir();
      const s = await serve({ text: "you piped a diff" });
      const run = await runShiro(["-p", "what did I pipe", ...flags], { baseURL: s.url, cwd: work, home, stdin: "diff --git a/x b/x\n+piped text\n" });
      expect(run.code).toBe(0);
      expect(userTexts(s.requests[0]!.body).join("\n")).toContain("+piped text");
      const [only] = sessionFiles(home);
      expect(JSON.parse(readFileSync(join(sessionsDir(home), only!), "utf8")).title).toBe("what did I pipe");
      const list = await runShiro(["sessions"], { home, cwd: work });
      expect(list.stdout).toContain("what did I pipe");
      expect(list.stdout).not.toContain("piped text");
      expect(list.stdout).not.toContain("diff --git");
    });

    test("a -p run saves a record with the spec's fields, and never the key", async () => {
      const home = tempDir();
      const work = tempDir();
      const s = await serve({ toolCalls: [{ name: "list_dir", input: {} }] }, { text: "done", usage: { input: 1000, output: 100 } });
      const run = await runShiro(["-p", "why does the pagination test fail?", "--json", "-m", "gpt-5-mini", ...flags], {
        baseURL: s.url,
        cwd: work,
        home,
        env: { SHIRO_API_KEY: "sk-secret-never-saved" },
      });
      const result = jsonLines(run.stdout).at(-1)!;
      expect(result.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
      const raw = readFileSync(join(sessionsDir(home), `${result.sessionId}.json`), "utf8");
      expect(raw).not.toContain("sk-secret-never-saved");
      const record = JSON.parse(raw);
      expect(record).toMatchObject({ id: result.sessionId, cwd: work, model: "gpt-5-mini", title: "why does the pagination test fail?", notebook: { todos: [] } });
      for (const field of ["createdAt", "updatedAt", "provider", "inputTokens", "outputTokens", "messages"]) expect(field in record).toBe(true);
      expect(record.messages.length).toBeGreaterThanOrEqual(4);
      expect(record.inputTokens).toBeGreaterThan(1000);
      expect(typeof record.costUsd).toBe("number");
      expect(result.costUsd).toBeGreaterThan(0);
    });

    test("shiro killed while a command runs: -c resumes with the call on record, closed as interrupted", async () => {
      const home = tempDir();
      const work = tempDir();
      const s = await serve({ text: "Making it. ", toolCalls: [{ name: "bash", input: { command: "touch made.txt && sleep 30" } }] }, { text: "I will check." });
      const child = Bun.spawn([...shiroCommand(), "-p", "make the file", "--yolo", "--no-sandbox", ...flags], { cwd: work, env: shiroEnv(home, s.url), stdout: "pipe", stderr: "pipe" });
      const deadline = Date.now() + 10_000;
      while (!existsSync(join(work, "made.txt")) && Date.now() < deadline) await Bun.sleep(20);
      await Bun.sleep(200); // the background save lands
      child.kill("SIGKILL");
      await child.exited;
      const run = await runShiro(["-c", "-p", "did it work?", ...flags], { baseURL: s.url, cwd: work, home });
      expect(run.code).toBe(0);
      const sent = JSON.stringify(s.requests[1]!.body);
      expect(sent).toContain("touch made.txt && sleep 30");
      expect(sent).toContain("interrupted before it finished");
      expect(userTexts(s.requests[1]!.body)).toEqual(["make the file", "did it work?"]);
    });

    test("shiro killed while one of two commands runs: -c has the finished one's result, the other interrupted", async () => {
      const home = tempDir();
      const work = tempDir();
      const s = await serve({ toolCalls: [{ name: "bash", input: { command: "touch a.txt" } }, { name: "bash", input: { command: "touch b.txt && sleep 30" } }] }, { text: "I will check." });
      const child = Bun.spawn([...shiroCommand(), "-p", "make both", "--yolo", "--no-sandbox", ...flags], { cwd: work, env: shiroEnv(home, s.url), stdout: "pipe", stderr: "pipe" });
      const deadline = Date.now() + 10_000;
      while (!(existsSync(join(work, "a.txt")) && existsSync(join(work, "b.txt"))) && Date.now() < deadline) await Bun.sleep(20);
      await Bun.sleep(300); // the first command's result is in, and its background save lands
      child.kill("SIGKILL");
      await child.exited;
      const run = await runShiro(["-c", "-p", "did it work?", ...flags], { baseURL: s.url, cwd: work, home });
      expect(run.code).toBe(0);
      const sent = JSON.stringify(s.requests[1]!.body);
      expect(sent.match(/interrupted before it finished/g)).toHaveLength(1);
      expect(sent).toContain("Exit code 0");
    });

    test("-c continues the newest session of this directory, not another directory's", async () => {
      const home = tempDir();
      const here = tempDir();
      const elsewhere = tempDir();
      const s = await serve({ text: "first" }, { text: "other" }, { text: "continued" });
      await runShiro(["-p", "remember the word pineapple", ...flags], { baseURL: s.url, cwd: here, home });
      await runShiro(["-p", "unrelated project", ...flags], { baseURL: s.url, cwd: elsewhere, home });
      const run = await runShiro(["-c", "-p", "what was the word?", ...flags], { baseURL: s.url, cwd: here, home });
      expect(run.code).toBe(0);
      expect(userTexts(s.requests[2]!.body)).toEqual(["remember the word pineapple", "what was the word?"]);
      expect(sessionFiles(home)).toHaveLength(2);
    });

    test("-c with no session here is a clear message and exit 2", async () => {
      const run = await runShiro(["-c", "-p", "hi", ...flags], { baseURL: "http://127.0.0.1:9/v1" });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/no saved session/i);
    });

    test("-r resumes by unique prefix and restores the task list", async () => {
      const home = tempDir();
      const work = tempDir();
      const todos = [{ content: "step one", status: "in_progress" }];
      const s = await serve({ toolCalls: [{ name: "todo_write", input: { todos } }] }, { text: "planned" }, { text: "resumed" });
      const first = jsonLines((await runShiro(["-p", "plan", "--json", ...flags], { baseURL: s.url, cwd: work, home })).stdout).at(-1)!;
      const other = tempDir();
      const run = await runShiro(["-r", first.sessionId.slice(0, 13), "-p", "go on", "--json", ...flags], { baseURL: s.url, cwd: other, home });
      expect(run.code).toBe(0);
      expect(jsonLines(run.stdout).at(-1)).toMatchObject({ sessionId: first.sessionId, todos });
      expect(JSON.stringify(s.requests[2]!.body)).toContain("[~] step one");
    });

    test("a denied call keeps the user's short line in the session; the model is sent only its reason, now and after -c", async () => {
      const home = tempDir();
      const work = tempDir();
      writeFileSync(join(work, ".env"), "TOKEN=abc\n");
      const s = await serve({ toolCalls: [{ name: "read_file", input: { path: ".env" } }] }, { text: "not allowed" }, { text: "resumed" });
      const first = jsonLines((await runShiro(["-p", "read the env", "--json", ...flags], { baseURL: s.url, cwd: work, home })).stdout).at(-1)!;
      const result = readSession(home, first.sessionId).messages.find((m: any) => m.role === "tool").content[0];
      expect(result.output.value).toStartWith("Not run: read_file `.env` is denied: it looks like a secrets file");
      expect(result.providerOptions.shiro).toEqual({ shown: "a secrets file, never read or written" });
      expect((await runShiro(["-c", "-p", "go on", "--json", ...flags], { baseURL: s.url, cwd: work, home })).code).toBe(0);
      for (const request of [s.requests[1]!, s.requests[2]!]) {
        const body = JSON.stringify(request.body);
        expect(body).toContain("Not run: read_file `.env` is denied");
        expect(body).not.toContain("a secrets file, never read or written");
        expect(body).not.toContain("shiro\":{");
      }
    });
  });
}

describe("finding sessions", () => {
  test("a sessions sub-command without its id says what it needs in one line, without a doubled 'shiro'", async () => {
    for (const sub of ["show", "export", "rm"]) {
      const run = await runShiro(["sessions", sub], { home: tempDir() });
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`shiro: sessions ${sub} needs a session id or a prefix of one: shiro sessions lists them.\n`);
    }
  });

  function seed(home: string, ids: string[], cwd: string) {
    mkdirSync(sessionsDir(home), { recursive: true });
    for (const id of ids) {
      const now = new Date().toISOString();
      writeFileSync(
        join(sessionsDir(home), `${id}.json`),
        JSON.stringify({ version: 1, id, createdAt: now, updatedAt: now, cwd, provider: "openai", model: "m", title: `title ${id.slice(-4)}`, inputTokens: 0, outputTokens: 0, notebook: { todos: [] }, messages: [{ role: "user", content: "hi" }] }),
      );
    }
  }

  test("an ambiguous prefix lists the candidates and exits 2", async () => {
    const home = tempDir();
    seed(home, ["0193ab2c-0000-7000-8000-000000000001", "0193ab2c-0000-7000-8000-000000000002"], tempDir());
    const run = await runShiro(["-r", "0193ab2c", "-p", "hi"], { home, baseURL: "http://127.0.0.1:9/v1" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("0193ab2c-0000-7000-8000-000000000001".slice(0, 34));
    expect(run.stderr).toMatch(/ambiguous|matches/i);
  });

  test("corrupt files are skipped in listings with a warning; -r on one says where it is", async () => {
    const home = tempDir();
    const work = tempDir();
    seed(home, ["0193ab2c-1111-7000-8000-000000000001"], work);
    writeFileSync(join(sessionsDir(home), "0193ab2d-2222-7000-8000-000000000002.json"), '{"version":1,"id":"0193ab2d-');
    const list = await runShiro(["sessions", "--all"], { home, cwd: work });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("title 0001");
    expect(list.stderr).toContain("0193ab2d-2222-7000-8000-000000000002.json");
    const resume = await runShiro(["-r", "0193ab2d", "-p", "hi"], { home, baseURL: "http://127.0.0.1:9/v1" });
    expect(resume.code).toBe(2);
    expect(resume.stderr).toMatch(/corrupt/i);
    expect(resume.stderr).toContain(sessionsDir(home));
  });

  test("-c and shiro undo say which damaged file they passed over for an older session; with none left, the error says files are damaged", async () => {
    const home = tempDir();
    const work = tempDir();
    writeFileSync(join(work, "a.txt"), "alpha\n");
    const s = await serve(
      { toolCalls: [{ name: "edit_file", input: { path: "a.txt", oldString: "alpha", newString: "beta" } }] },
      { text: "older answer" },
      { text: "newer answer" },
      { text: "continued" },
    );
    expect((await runShiro(["-p", "older", "--yolo"], { baseURL: s.url, cwd: work, home })).code).toBe(0);
    expect((await runShiro(["-p", "newer"], { baseURL: s.url, cwd: work, home })).code).toBe(0);
    const damaged = join(sessionsDir(home), sessionFiles(home).sort().at(-1)!); // ids sort by age: the newer one
    writeFileSync(damaged, "garbage\n");

    const continued = await runShiro(["-c", "-p", "go on"], { baseURL: s.url, cwd: work, home });
    expect(continued.code).toBe(0);
    expect(continued.stderr).toContain(`skipped ${damaged}: not valid JSON at line 1, column 1`);
    expect(JSON.stringify(s.requests.at(-1)!.body)).toContain("older"); // the older session, as said

    const undone = await runShiro(["undo"], { cwd: work, home });
    expect(undone.code).toBe(0);
    expect(undone.stderr).toContain(`shiro: warning: skipped ${damaged}: not valid JSON`);
    expect(undone.stdout).toContain('Took the conversation back to before "go on"'); // the older session's last turn

    const elsewhere = await runShiro(["-c", "-p", "hi"], { cwd: tempDir(), home, baseURL: "http://127.0.0.1:9/v1" });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain("yet, or none that can be read (a session file is damaged: shiro sessions names them).");
    expect(readFileSync(damaged, "utf8")).toBe("garbage\n");
  });

  test("sessions list/show/export/rm for scripts", async () => {
    const home = tempDir();
    const work = tempDir();
    const s = await serve({ text: "the answer" });
    const first = jsonLines((await runShiro(["-p", "a question", "--json"], { baseURL: s.url, cwd: work, home })).stdout).at(-1)!;
    const list = jsonLines((await runShiro(["sessions", "list", "--json"], { home, cwd: work })).stdout);
    expect(list.map((l) => l.id)).toEqual([first.sessionId]);
    expect((await runShiro(["sessions", "list", "--json"], { home, cwd: tempDir() })).stdout).toBe("");
    const show = await runShiro(["sessions", "show", first.sessionId.slice(0, 13)], { home });
    expect(show.stdout).toContain("a question");
    expect(show.stdout).toContain("the answer");
    const md = await runShiro(["sessions", "export", first.sessionId, "--format", "md"], { home });
    expect(md.stdout).toContain("the answer");
    const json = JSON.parse((await runShiro(["sessions", "export", first.sessionId, "--format", "json"], { home })).stdout);
    expect(json.id).toBe(first.sessionId);
    expect((await runShiro(["sessions", "rm", first.sessionId], { home })).code).toBe(0);
    expect(sessionFiles(home)).toEqual([]);
  });
});

describe("exit message, cost and spend", () => {
  test("text mode ends with one line on stderr naming the saved session and how to resume it", async () => {
    const home = tempDir();
    const s = await serve({ text: "ok" });
    const run = await runShiro(["-p", "why does the pagination test fail?"], { baseURL: s.url, home });
    const [file] = sessionFiles(home);
    const id = file!.replace(/\.json$/, "");
    const prefix = run.stderr.match(/shiro -r (\S+)/)![1]!;
    expect(id.startsWith(prefix)).toBe(true);
    expect(prefix.replace(/-/g, "").length).toBeGreaterThanOrEqual(8);
    expect(run.stderr).toBe(`saved session ${prefix} · resume with shiro -r ${prefix}\n`);
    expect(run.stderr).not.toContain("Good bye.");
  });

  test("the spend ceiling refuses a turn once passed (exit 4), and an unpriced model is never $0", async () => {
    const home = tempDir();
    const work = tempDir();
    const s = await serve({ text: "expensive", usage: { input: 2_000_000, output: 10_000 } }, { text: "unpriced" });
    await runShiro(["-p", "big", "-m", "gpt-5-mini"], { baseURL: s.url, cwd: work, home });
    const refused = await runShiro(["-c", "-p", "more", "-m", "gpt-5-mini", "--max-spend", "0.10"], { baseURL: s.url, cwd: work, home });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/limit/);
    expect(s.requests).toHaveLength(1);
    const unpriced = jsonLines((await runShiro(["-p", "x", "--json", "-m", "my-local-llama"], { baseURL: s.url, home })).stdout).at(-1)!;
    expect(unpriced.costUsd).toBeNull();
  });
});

describe("crash safety and concurrency", () => {
  test("two concurrent -c runs keep both conversations: the second forks and says so", async () => {
    const home = tempDir();
    const work = tempDir();
    // The first continuation's answer streams slowly (a pause before each piece): the second run copies the session well before it ends.
    const s = await serve({ text: "base" }, { text: "slow reply from the first", delayMs: 250 }, { text: "second" });
    await runShiro(["-p", "base prompt"], { baseURL: s.url, cwd: work, home });
    const slow = runShiro(["-c", "-p", "first continuation"], { baseURL: s.url, cwd: work, home });
    while (s.requests.length < 2) await Bun.sleep(10);
    const fast = await runShiro(["-c", "-p", "second continuation"], { baseURL: s.url, cwd: work, home });
    await slow;
    expect(fast.stderr).toMatch(/open in another shiro/);
    const files = sessionFiles(home);
    expect(files).toHaveLength(2);
    const texts = files.map((f) => readFileSync(join(sessionsDir(home), f), "utf8"));
    // Each conversation's own exchange is in one file only. (The first one's prompt may be in the
    // copy too, if it was saved before the second run read the file; its answer never is.)
    expect(texts.filter((t) => t.includes("slow reply from the first"))).toHaveLength(1);
    expect(texts.filter((t) => t.includes("second continuation"))).toHaveLength(1);
    expect(texts.find((t) => t.includes("second continuation"))).not.toContain("slow reply from the first");
    expect(texts.every((t) => t.includes("base prompt"))).toBe(true);
  }, 15_000);

  test("kill -9 during a long tool loop leaves a complete, valid session file", async () => {
    const home = tempDir();
    const work = tempDir();
    const replies: Reply[] = Array.from({ length: 60 }, () => ({ toolCalls: [{ name: "list_dir", input: {} }], delayMs: 5 }));
    const s = await serve(...replies);
    serve.allowLeftovers("shiro is killed part-way through the scripted loop");
    const { shiroCommand } = await import("../support/cli.ts");
    const child = Bun.spawn([...shiroCommand(), "-p", "loop forever", "--max-steps", "100"], {
      cwd: work,
      env: { PATH: process.env.PATH!, HOME: home, SHIRO_HOME: join(home, ".shiro-neko"), SHIRO_BASE_URL: s.url, SHIRO_CONTEXT_WINDOW: "1000000", ...HOST_INDEPENDENT_ENV },
      stdout: "ignore",
      stderr: "ignore",
    });
    while (s.requests.length < 15) await Bun.sleep(5);
    child.kill("SIGKILL");
    await child.exited;
    const [file] = sessionFiles(home);
    const record = JSON.parse(readFileSync(join(sessionsDir(home), file!), "utf8"));
    expect(record.messages.length).toBeGreaterThan(5);
    // The next shiro lists it without a warning (a temp file left by the kill is swept, never read).
    const list = await runShiro(["sessions", "--all", "--json"], { home });
    expect(list.stderr).toBe("");
    expect(jsonLines(list.stdout).map((l) => l.id)).toEqual([record.id]);
  });
});

test("autosave is debounced: a fast 40-step tool loop rewrites the session file a handful of times, not per step", async () => {
  const home = tempDir();
  const work = tempDir();
  const replies: Reply[] = Array.from({ length: 40 }, (_, i) => ({ toolCalls: [{ name: "grep", input: { pattern: `needle-${i}` } }] }));
  replies.push({ text: "done" });
  const s = await serve(...replies);
  const { shiroCommand } = await import("../support/cli.ts");
  const { statSync, readdirSync: list } = await import("node:fs");
  const child = Bun.spawn([...shiroCommand(), "-p", "search", "--max-steps", "50"], {
    cwd: work,
    env: { PATH: process.env.PATH!, HOME: home, SHIRO_HOME: join(home, ".shiro-neko"), SHIRO_BASE_URL: s.url, SHIRO_CONTEXT_WINDOW: "1000000", ...HOST_INDEPENDENT_ENV },
    stdout: "ignore",
    stderr: "ignore",
  });
  // Every save is a rename onto the file, so each write shows up as a new inode.
  const inodes = new Set<number>();
  let exited = false;
  child.exited.then(() => (exited = true));
  const started = Date.now();
  while (!exited) {
    try {
      const file = list(sessionsDir(home)).find((n) => n.endsWith(".json"));
      if (file) inodes.add(statSync(join(sessionsDir(home), file)).ino);
    } catch {}
    await Bun.sleep(1);
  }
  const elapsedMs = Date.now() - started;
  expect(await child.exited).toBe(0);
  expect(s.requests).toHaveLength(41);
  // 41 steps; at most one write per 400 ms window plus the final flush.
  expect(inodes.size).toBeGreaterThanOrEqual(1);
  expect(inodes.size).toBeLessThanOrEqual(Math.ceil(elapsedMs / 400) + 2);
  expect(inodes.size).toBeLessThan(15);
});

for (const { wire, flags } of WIRES) {
  test(`cost uses the cache rate for cached input tokens (${wire})`, async () => {
    const s = await serve({ text: "cached", usage: { input: 1_000_000, output: 0, cached: 800_000 } }, { text: "uncached", usage: { input: 1_000_000, output: 0 } });
    const cached = jsonLines((await runShiro(["-p", "a", "--json", "-m", "gpt-5-mini", ...flags], { baseURL: s.url })).stdout).at(-1)!;
    const full = jsonLines((await runShiro(["-p", "b", "--json", "-m", "gpt-5-mini", ...flags], { baseURL: s.url })).stdout).at(-1)!;
    // gpt-5-mini: $0.25 per million input, $0.025 per million cached input.
    expect(full.costUsd).toBeCloseTo(0.25, 6);
    expect(cached.costUsd).toBeCloseTo(0.2 * 0.25 + 0.8 * 0.025, 6);
  });
}
