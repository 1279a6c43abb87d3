import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Reply } from "../support/fake-openai.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { HOST_INDEPENDENT_ENV } from "../support/host-tools.ts";
import { instructionsIn, toolOutputsIn, WIRES } from "../support/requests.ts";

const serve = useFakeServer();

for (const { wire, flags } of WIRES) {
  describe(`headless over ${wire}`, () => {
    test("a text answer goes to stdout and exits 0", async () => {
      const s = await serve({ text: "The answer is 42." });
      const run = await runShiro(["-p", "what is the answer?", ...flags], { baseURL: s.url });
      expect(run.stdout).toBe("The answer is 42.\n");
      expect(run.code).toBe(0);
      expect(s.requests).toHaveLength(1);
      expect(s.requests[0]!.wire).toBe(wire);
    });

    test("--json prints only JSON lines and ends with the result record", async () => {
      const s = await serve({ text: "hello", usage: { input: 120, output: 7 } });
      const run = await runShiro(["-p", "hi", "--json", ...flags], { baseURL: s.url });
      const lines = jsonLines(run.stdout);
      expect(lines.filter((l) => l.type === "text").map((l) => l.text).join("")).toBe("hello");
      const result = lines.at(-1)!;
      expect(result).toMatchObject({ type: "result", status: "success", exitCode: 0, steps: 1, usage: { inputTokens: 120, outputTokens: 7 }, denied: [], todos: [] });
      for (const key of ["sessionId", "costUsd"]) expect(key in result).toBe(true);
      // Dollars to a millionth of a cent, not the float noise of adding prices (0.00019830000000000002).
      expect(result.costUsd).toBeGreaterThan(0);
      expect(Number(result.costUsd.toFixed(8))).toBe(result.costUsd);
      expect(lines.some((l) => l.type === "done")).toBe(true);
      expect(run.code).toBe(0);
    });

    test("a multi-step tool loop reads a file and the result reaches the model", async () => {
      const work = tempDir();
      writeFileSync(join(work, "notes.txt"), "alpha\nbeta\n");
      const s = await serve(
        { toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }] },
        { toolCalls: [{ name: "grep", input: { pattern: "bet" } }] },
        { text: "notes.txt has two lines." },
      );
      const run = await runShiro(["-p", "summarise notes.txt", ...flags], { baseURL: s.url, cwd: work });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("notes.txt has two lines.\n");
      expect(run.stderr).toContain("→ read_file notes.txt");
      expect(s.requests).toHaveLength(3);
      expect(toolOutputsIn(s.requests[1]!.body).join("\n")).toContain("alpha");
      expect(toolOutputsIn(s.requests[2]!.body).join("\n")).toContain("beta");
    });

    test("calls made together: each file tool's progress line names its file, live and in sessions show", async () => {
      const work = tempDir();
      const home = tempDir();
      writeFileSync(join(work, "a.txt"), "one\ntwo\n");
      const s = await serve(
        {
          toolCalls: [
            { name: "edit_file", input: { path: "a.txt", oldString: "two", newString: "TWO" } },
            { name: "write_file", input: { path: "b.txt", content: "x\ny\n" } },
          ],
        },
        { text: "both done" },
      );
      const run = await runShiro(["-p", "change both", "--yolo", ...flags], { baseURL: s.url, cwd: work, home });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("  ✓ edit_file: +1 -1 · a.txt\n");
      expect(run.stderr).toContain("  ✓ write_file: created, 2 lines · b.txt\n");
      const list = await runShiro(["sessions", "--json"], { cwd: work, home });
      const show = await runShiro(["sessions", "show", jsonLines(list.stdout)[0]!.id], { cwd: work, home });
      // Its results' text names the files already (Edited a.txt: …), so they are not repeated.
      // sessions show repeats the live lines, in the same words.
      expect(show.stdout).toContain("  ✓ edit_file: +1 -1 · a.txt\n");
      expect(show.stdout).toContain("  ✓ write_file: created, 2 lines · b.txt\n");
    });

    test("without --yolo a write is denied, reported, and nothing is written", async () => {
      const work = tempDir();
      const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "out.txt", content: "x" } }] }, { text: "I could not write it." });
      const run = await runShiro(["-p", "write out.txt", "--json", ...flags], { baseURL: s.url, cwd: work });
      const lines = jsonLines(run.stdout);
      expect(lines.some((l) => l.type === "tool-denied" && l.tool === "write_file")).toBe(true);
      expect(lines.at(-1)!.denied).toEqual([expect.objectContaining({ tool: "write_file", subject: "out.txt" })]);
      expect(existsSync(join(work, "out.txt"))).toBe(false);
      expect(toolOutputsIn(s.requests[1]!.body).join("")).toContain("--yolo");
      expect(run.code).toBe(0);
    });

    test("without --yolo a read-only command runs and its output reaches the model; a writing one is denied", async () => {
      const work = tempDir();
      writeFileSync(join(work, "notes.txt"), "remember the milk\n");
      const s = await serve(
        { toolCalls: [{ name: "bash", input: { command: "cat notes.txt | grep milk" } }] },
        { toolCalls: [{ name: "bash", input: { command: "touch x" } }] },
        { text: "done" },
      );
      const run = await runShiro(["-p", "what do the notes say", ...flags], { baseURL: s.url, cwd: work });
      expect(run.code).toBe(0);
      expect(toolOutputsIn(s.requests[1]!.body).join("")).toContain("remember the milk");
      expect(run.stderr).toContain("  ✓ bash: exit 0 · cat notes.txt | grep milk\n");
      expect(run.stderr.split("\n").filter((l) => l.includes("⊘"))).toEqual(["  ⊘ bash touch x: not run (headless without --yolo)"]);
      const told = toolOutputsIn(s.requests[2]!.body).join("");
      expect(told).toContain("shiro is running headless (shiro -p) without --yolo");
      expect(told).toContain("Only commands that just look");
      expect(existsSync(join(work, "x"))).toBe(false);
    });

    test("text mode: a denial is one short line for the user, and the model still gets the whole reason", async () => {
      const work = tempDir();
      const s = await serve({ toolCalls: [{ name: "write_file", input: { path: "h.txt", content: "x" } }] }, { text: "I could not write it." });
      const run = await runShiro(["-p", "write h.txt", ...flags], { baseURL: s.url, cwd: work });
      expect(run.code).toBe(0);
      expect(run.stderr.split("\n").filter((l) => l.includes("⊘"))).toEqual(["  ⊘ write_file h.txt: not run (headless without --yolo)"]);
      const told = toolOutputsIn(s.requests[1]!.body).join("");
      expect(told).toContain("shiro is running headless (shiro -p) without --yolo");
      expect(told).toContain('allow it under "permission" in the config file.');
    });

    test("--mode or config approvalMode other than ask: one note that headless asks nobody; none with --yolo or ask", async () => {
      const s = await serve({ text: "ok" }, { text: "ok" }, { text: "ok" }, { text: "ok" });
      const flag = await runShiro(["-p", "hi", "--mode", "edits", ...flags], { baseURL: s.url });
      expect(flag.code).toBe(0);
      expect(flag.stderr.split("\n").filter((l) => l.startsWith("note: "))).toEqual([
        "note: --mode applies to the interactive loop; headless runs ask nobody, so only reads and read-only commands run: use --yolo to allow edits and other commands",
      ]);
      const home = tempDir();
      mkdirSync(join(home, ".shiro-neko"), { recursive: true });
      writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ approvalMode: "auto" }));
      const config = await runShiro(["-p", "hi", ...flags], { baseURL: s.url, home });
      expect(config.stderr).toContain('note: config "approvalMode" (auto) applies to the interactive loop; headless runs ask nobody, so only reads and read-only commands run: use --yolo to allow edits and other commands\n');
      const yolo = await runShiro(["-p", "hi", "--mode", "edits", "--yolo", ...flags], { baseURL: s.url });
      const ask = await runShiro(["-p", "hi", "--mode", "ask", ...flags], { baseURL: s.url });
      for (const run of [yolo, ask]) {
        expect(run.code).toBe(0);
        expect(run.stderr).not.toContain("interactive loop");
      }
    });

    test("with --yolo edits and commands run", async () => {
      const work = tempDir();
      writeFileSync(join(work, "a.txt"), "one two\n");
      const s = await serve(
        { toolCalls: [{ name: "edit_file", input: { path: "a.txt", oldString: "two", newString: "three" } }] },
        { toolCalls: [{ name: "bash", input: { command: "cat a.txt; exit 3" } }] },
        { text: "done" },
      );
      const run = await runShiro(["-p", "edit", "--yolo", ...flags], { baseURL: s.url, cwd: work });
      expect(run.code).toBe(0);
      expect(readFileSync(join(work, "a.txt"), "utf8")).toBe("one three\n");
      const bashOutput = toolOutputsIn(s.requests[2]!.body).join("");
      expect(bashOutput).toContain("one three");
      expect(bashOutput).toContain("3");
    });

    test("a failing tool becomes an error result and the turn continues", async () => {
      const work = tempDir();
      writeFileSync(join(work, "a.txt"), "same same\n");
      const s = await serve(
        { toolCalls: [{ name: "edit_file", input: { path: "a.txt", oldString: "same", newString: "diff" } }] },
        { text: "It appears twice." },
      );
      const run = await runShiro(["-p", "edit", "--yolo", "--json", ...flags], { baseURL: s.url, cwd: work });
      const lines = jsonLines(run.stdout);
      expect(lines.find((l) => l.type === "tool-error")?.error).toContain("2");
      expect(toolOutputsIn(s.requests[1]!.body).join("")).toMatch(/appears 2 times/);
      expect(run.code).toBe(0);
    });

    test("malformed tool arguments and an unknown tool get error results, not a crash", async () => {
      const s = await serve(
        { toolCalls: [{ name: "read_file", input: '{"path": "a.txt"' }] },
        { toolCalls: [{ name: "launch_rockets", input: { count: 3 } }] },
        { toolCalls: [{ name: "read_file", input: { path: 42 } }] },
        { text: "giving up" },
      );
      const run = await runShiro(["-p", "go", "--json", ...flags], { baseURL: s.url });
      const errors = jsonLines(run.stdout).filter((l) => l.type === "tool-error");
      expect(errors).toHaveLength(3);
      expect(toolOutputsIn(s.requests[2]!.body).join("\n")).toContain("launch_rockets");
      expect(toolOutputsIn(s.requests[3]!.body).join("\n")).toMatch(/read_file: invalid arguments \(path/);
      expect(run.code).toBe(0);
    });

    test("piped stdin is added to the prompt", async () => {
      const s = await serve({ text: "looks fine" });
      const run = await runShiro(["-p", "review this diff", ...flags], { baseURL: s.url, stdin: "+added line\n-removed line\n" });
      expect(run.code).toBe(0);
      const sent = JSON.stringify(s.requests[0]!.body);
      expect(sent).toContain("review this diff");
      expect(sent).toContain("+added line");
    });

    test("a 500 is retried and the turn succeeds", async () => {
      const s = await serve({ status: 500, body: { error: { message: "The server had an error. Please try again later.", type: "server_error" } } }, { text: "recovered" });
      const run = await runShiro(["-p", "hi", ...flags], { baseURL: s.url });
      expect(run.stdout).toBe("recovered\n");
      // The server's sentence and the retry read as one line, without a stray ".;".
      expect(run.stderr).toMatch(/Please try again later; retrying in \S+ \(attempt 2 of 4\)/);
      expect(run.code).toBe(0);
    });

    test("a 429 honours retry-after", async () => {
      const s = await serve({ status: 429, headers: { "retry-after": "0.05" }, body: { error: { message: "slow down", type: "rate_limit" } } }, { text: "ok" });
      const run = await runShiro(["-p", "hi", ...flags], { baseURL: s.url });
      expect(run.stderr).toMatch(/429.*retrying in 50ms/);
      expect(run.code).toBe(0);
    });

    test("a provider error that is not retryable exits 1 with one clear line", async () => {
      const s = await serve({ status: 400, body: { error: { message: "Invalid model id", type: "invalid_request_error" } } });
      const run = await runShiro(["-p", "hi", ...flags], { baseURL: s.url });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("provider returned 400: Invalid model id");
      expect(run.stderr).not.toContain("    at ");
    });

    test("reaching the step cap exits 3 with a valid history", async () => {
      const s = await serve(
        { toolCalls: [{ name: "list_dir", input: {} }] },
        { toolCalls: [{ name: "list_dir", input: {} }] },
      );
      const run = await runShiro(["-p", "loop", "--max-steps", "2", "--json", ...flags], { baseURL: s.url });
      expect(run.code).toBe(3);
      expect(jsonLines(run.stdout).at(-1)).toMatchObject({ status: "step-cap", exitCode: 3, steps: 2 });
    });

    test("SIGINT during a hung request exits 130", async () => {
      const s = await serve({ fault: "hang" });
      const work = tempDir();
      const { shiroCommand } = await import("../support/cli.ts");
      const home = tempDir();
      const child = Bun.spawn([...shiroCommand(), "-p", "hi", ...flags], {
        cwd: work,
        env: { PATH: process.env.PATH!, HOME: home, SHIRO_HOME: join(home, "h"), SHIRO_BASE_URL: s.url, SHIRO_CONTEXT_WINDOW: "1000000", ...HOST_INDEPENDENT_ENV },
        stdout: "pipe",
        stderr: "pipe",
      });
      while (s.requests.length === 0) await Bun.sleep(20);
      child.kill("SIGINT");
      expect(await child.exited).toBe(130);
    });

    test("an interrupted turn is marked for the model: -c sends the note after it, and the transcript shows (interrupted)", async () => {
      const s = await serve({ text: "Half of an answ", fault: "hang" }, { text: "picking up" });
      const work = tempDir();
      const home = tempDir();
      const { shiroCommand, shiroEnv } = await import("../support/cli.ts");
      const child = Bun.spawn([...shiroCommand(), "-p", "explain it", ...flags], { cwd: work, env: shiroEnv(home, s.url), stdout: "pipe", stderr: "pipe" });
      // SIGINT once the partial text is on stdout (a fixed wait is too short on a loaded machine).
      const reader = child.stdout.getReader();
      for (let seen = ""; !seen.includes("Half of an answ"); ) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += new TextDecoder().decode(value);
      }
      child.kill("SIGINT");
      expect(await child.exited).toBe(130);
      const next = await runShiro(["-c", "-p", "go on", ...flags], { baseURL: s.url, cwd: work, home });
      expect(next.code).toBe(0);
      const sent = JSON.stringify(s.requests.at(-1)!.body);
      const [partial, note, prompt] = [sent.indexOf("Half of an answ"), sent.indexOf("The user interrupted the turn above"), sent.indexOf("go on")];
      expect(partial).toBeGreaterThan(-1);
      expect(note).toBeGreaterThan(partial);
      expect(prompt).toBeGreaterThan(note);
      const list = await runShiro(["sessions", "--json"], { cwd: work, home });
      const show = await runShiro(["sessions", "show", jsonLines(list.stdout)[0]!.id], { cwd: work, home });
      expect(show.stdout).toContain("(interrupted)");
      expect(show.stdout).not.toContain("The user interrupted");
    });

    test("AGENTS.md from the repo root down to the cwd is in the system prompt", async () => {
      const work = tempDir();
      mkdirSync(join(work, ".git"));
      mkdirSync(join(work, "pkg"));
      writeFileSync(join(work, "AGENTS.md"), "ROOT-RULE: use tabs");
      writeFileSync(join(work, "pkg", "CLAUDE.md"), "PKG-RULE: no semicolons");
      const s = await serve({ text: "ok" });
      await runShiro(["-p", "hi", ...flags], { baseURL: s.url, cwd: join(work, "pkg") });
      const instructions = instructionsIn(s.requests[0]!.body);
      expect(instructions).toContain("ROOT-RULE: use tabs");
      expect(instructions).toContain("PKG-RULE: no semicolons");
      expect(instructions.indexOf("ROOT-RULE")).toBeLessThan(instructions.indexOf("PKG-RULE"));
      expect(instructions).toContain(join(work, "pkg"));
    });
  });
}

describe("usage and configuration errors exit 2", () => {
  test("-p with no prompt and no stdin", async () => {
    const run = await runShiro(["-p"], { baseURL: "http://127.0.0.1:9/v1" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("no prompt");
  });

  test("an unknown flag", async () => {
    const run = await runShiro(["-p", "hi", "--frobnicate"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown option --frobnicate");
  });

  test("no key and no local base URL names what to set, and the config file by its path", async () => {
    const home = tempDir();
    const run = await runShiro(["-p", "hi"], { home });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("SHIRO_API_KEY");
    expect(run.stderr).toContain(`"apiKey" in ${join(home, ".shiro-neko", "config.json")}`);
  });

  test("an invalid config names the file and the field", async () => {
    const home = tempDir();
    mkdirSync(join(home, ".shiro-neko"));
    writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ maxSteps: "many" }));
    const run = await runShiro(["-p", "hi"], { home, baseURL: "http://127.0.0.1:9/v1" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(join(home, ".shiro-neko", "config.json"));
    expect(run.stderr).toContain('"maxSteps"');
  });

  test("config model is used, and a flag overrides it", async () => {
    const home = tempDir();
    mkdirSync(join(home, ".shiro-neko"));
    writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ model: "from-config" }));
    const s = await serve({ text: "a" }, { text: "b" });
    await runShiro(["-p", "hi"], { home, baseURL: s.url });
    await runShiro(["-p", "hi", "--model", "from-flag"], { home, baseURL: s.url });
    expect(s.requests.map((r) => r.body.model)).toEqual(["from-config", "from-flag"]);
  });

  test("--version and --help print without contacting anything", async () => {
    const version = await runShiro(["--version"]);
    expect(version.stdout).toMatch(/^shiro \d+\.\d+\.\d+ \(bun \d+\.\d+\.\d+, (linux|darwin|windows)-(x64|arm64)(-baseline)?\)\n$/);
    const help = await runShiro(["--help"]);
    expect(help.stdout).toContain("--yolo");
    expect(help.stdout).toContain("Exit codes");
  });
});

for (const { wire, flags } of WIRES) {
  describe(`provider faults over ${wire}`, () => {
    test("a connection reset before any output is retried", async () => {
      const s = await serve({ fault: "reset" }, { text: "second time lucky" });
      const run = await runShiro(["-p", "hi", ...flags], { baseURL: s.url });
      expect(run.stdout).toBe("second time lucky\n");
      expect(run.stderr).toContain("retrying");
      expect(run.code).toBe(0);
    });

    test("a stream cut off after text has been shown is not retried: exit 1, clear error", async () => {
      const s = await serve({ fault: "truncate", text: "Here is the start of" }, { text: "never requested" });
      const run = await runShiro(["-p", "hi", "--json", ...flags], { baseURL: s.url });
      const lines = jsonLines(run.stdout);
      expect(lines.filter((l) => l.type === "text").map((l) => l.text).join("")).toContain("Here is the start");
      expect(lines.at(-1)).toMatchObject({ status: "error", exitCode: 1 });
      expect(lines.at(-1)!.error).toMatch(/ended before the response was complete|provider/);
      serve.allowLeftovers("the turn ends at the cut-off stream: the second reply must stay unrequested");
      expect(s.pending()).toBe(1);
      expect(run.code).toBe(1);
    });

    test("a malformed stream ends the turn with a one-line error, no stack trace", async () => {
      const s = await serve({ fault: "malformed" }, { fault: "malformed" }, { fault: "malformed" }, { fault: "malformed" });
      const run = await runShiro(["-p", "hi", ...flags], { baseURL: s.url });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^error: /m);
      expect(run.stderr).not.toContain("    at ");
    });
  });
}

describe("headless process edges", () => {
  const serveEdge = useFakeServer();
  const isolatedEnv = (home: string, url: string) => ({ PATH: process.env.PATH!, HOME: home, SHIRO_HOME: join(home, ".shiro-neko"), SHIRO_BASE_URL: url, SHIRO_CONTEXT_WINDOW: "1000000", ...HOST_INDEPENDENT_ENV });

  test("with a -p prompt, an idle inherited stdin (a socket no one writes to) is not waited on", async () => {
    const s = await serveEdge({ text: "answered" });
    const home = tempDir();
    const { shiroCommand } = await import("../support/cli.ts");
    const child = Bun.spawn([...shiroCommand(), "-p", "hi"], { cwd: tempDir(), env: isolatedEnv(home, s.url), stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const code = await child.exited;
    clearTimeout(timer);
    expect(code).toBe(0);
    expect(await new Response(child.stdout).text()).toBe("answered\n");
  });

  test("a reader that goes away (| head) stops the run quietly: status 0, no stack trace, session saved", async () => {
    const s = await serveEdge({ text: "x".repeat(200_000), delayMs: 1 });
    const home = tempDir();
    const { shiroCommand } = await import("../support/cli.ts");
    const cmd = [...shiroCommand(), "-p", "talk"].map((a) => `'${a}'`).join(" ");
    const child = Bun.spawn(["bash", "-c", `${cmd} 2>err.txt | head -c 10 >/dev/null; echo "\${PIPESTATUS[0]}" > status.txt`], { cwd: home, env: isolatedEnv(home, s.url), stdout: "ignore", stderr: "ignore" });
    await child.exited;
    const stderr = await Bun.file(join(home, "err.txt")).text();
    expect(stderr).not.toContain("    at ");
    expect(stderr).not.toContain("EPIPE");
    expect((await Bun.file(join(home, "status.txt")).text()).trim()).toBe("0");
    const sessions = join(home, ".shiro-neko", "sessions");
    expect(require("node:fs").readdirSync(sessions).filter((n: string) => n.endsWith(".lock"))).toEqual([]);
    // The user interrupted nothing: the history carries no note saying so.
    const [file] = require("node:fs").readdirSync(sessions).filter((n: string) => n.endsWith(".json"));
    expect(readFileSync(join(sessions, file), "utf8")).not.toContain("The user interrupted");
  });

  test("a stdout that cannot be written (a full disk) stops the run with one line and exit 1, in text and in --json", async () => {
    for (const json of [false, true]) {
      const s = await serveEdge({ text: "an answer nobody can store" });
      // With --json the first line (the session event) already fails, so no request is sent.
      if (json) serveEdge.allowLeftovers("--json stops at its first line, before the request");
      const home = tempDir();
      const { shiroCommand } = await import("../support/cli.ts");
      const cmd = [...shiroCommand(), "-p", "hi", ...(json ? ["--json"] : [])].map((a) => `'${a}'`).join(" ");
      const child = Bun.spawn(["bash", "-c", `${cmd} >/dev/full 2>err.txt; echo $? > status.txt`], { cwd: home, env: isolatedEnv(home, s.url), stdout: "ignore", stderr: "ignore" });
      await child.exited;
      const stderr = await Bun.file(join(home, "err.txt")).text();
      expect(stderr).toContain("shiro: could not write the answer to stdout (");
      expect(stderr).not.toContain("    at ");
      expect(stderr).not.toContain("unexpected error");
      expect((await Bun.file(join(home, "status.txt")).text()).trim()).toBe("1");
    }
  });

  test("a slow reader gets every line: shiro leaves only after stdout has drained", async () => {
    const s = await serveEdge({ toolCalls: [{ name: "bash", input: { command: "seq 1 60000" } }] }, { text: "done" });
    const home = tempDir();
    const { shiroCommand } = await import("../support/cli.ts");
    const cmd = [...shiroCommand(), "-p", "count", "--yolo", "--json"].map((a) => `'${a}'`).join(" ");
    const child = Bun.spawn(["bash", "-c", `${cmd} 2>/dev/null | (sleep 1; cat) > out.jsonl`], { cwd: home, env: isolatedEnv(home, s.url), stdout: "ignore", stderr: "ignore" });
    await child.exited;
    const lines = jsonLines(await Bun.file(join(home, "out.jsonl")).text());
    expect(lines.at(-1)).toMatchObject({ type: "result", status: "success" });
    expect(lines.filter((l) => l.type === "tool-output").map((l) => l.chunk).join("")).toContain("\n60000\n");
  });

  test("result lines name the command they end, and a command cut short by SIGINT is marked interrupted", async () => {
    const s = await serveEdge({ toolCalls: [{ name: "bash", input: { command: "echo one" } }, { name: "bash", input: { command: "echo two" } }] }, { toolCalls: [{ name: "bash", input: { command: "sleep 10" } }] });
    const home = tempDir();
    const { shiroCommand } = await import("../support/cli.ts");
    const child = Bun.spawn([...shiroCommand(), "-p", "go", "--yolo", "--no-sandbox"], { cwd: tempDir(), env: isolatedEnv(home, s.url), stdout: "pipe", stderr: "pipe" });
    while (s.requests.length < 2) await Bun.sleep(20);
    await Bun.sleep(300); // the sleep has started
    child.kill("SIGINT");
    expect(await child.exited).toBe(130);
    const stderr = await new Response(child.stderr).text();
    expect(stderr).toContain("✓ bash: exit 0 · echo one");
    expect(stderr).toContain("✓ bash: exit 0 · echo two");
    expect(stderr).toContain("■ bash: interrupted · sleep 10");
  });

  test("--json: a command cut short by SIGINT ends with an interrupted result before done, carrying what the model is told", async () => {
    const s = await serveEdge({ toolCalls: [{ name: "bash", input: { command: "sleep 10" } }] });
    const home = tempDir();
    const { shiroCommand } = await import("../support/cli.ts");
    const child = Bun.spawn([...shiroCommand(), "-p", "go", "--yolo", "--no-sandbox", "--json"], { cwd: tempDir(), env: isolatedEnv(home, s.url), stdout: "pipe", stderr: "pipe" });
    while (s.requests.length < 1) await Bun.sleep(20);
    await Bun.sleep(300); // the sleep has started
    child.kill("SIGINT");
    expect(await child.exited).toBe(130);
    const events = jsonLines(await new Response(child.stdout).text()).filter((e: any) => e.type !== "notice");
    const call = events.find((e: any) => e.type === "tool-call");
    const types = events.map((e: any) => e.type);
    expect(types.slice(types.indexOf("tool-call"))).toEqual(["tool-call", "tool-result", "done", "result"]);
    expect(events.find((e: any) => e.type === "tool-result")).toEqual({ type: "tool-result", id: call?.id, tool: "bash", summary: "interrupted", output: expect.stringMatching(/^interrupted before it finished/) });
    expect(events.at(-1)).toMatchObject({ type: "result", status: "interrupted", exitCode: 130 });
    // The answer that asked for the command was received whole and paid for: it counts.
    expect(events.at(-1)!.usage.inputTokens).toBeGreaterThan(0);
    expect(events.at(-1)!.usage.outputTokens).toBeGreaterThan(0);
  });

  test("SIGHUP winds the run down like SIGINT: exit 130, session saved, lock released", async () => {
    const s = await serveEdge({ fault: "hang" });
    const home = tempDir();
    const { shiroCommand } = await import("../support/cli.ts");
    const child = Bun.spawn([...shiroCommand(), "-p", "hi"], { cwd: tempDir(), env: isolatedEnv(home, s.url), stdout: "pipe", stderr: "pipe" });
    while (s.requests.length === 0) await Bun.sleep(20);
    child.kill("SIGHUP");
    expect(await child.exited).toBe(130);
    const files = require("node:fs").readdirSync(join(home, ".shiro-neko", "sessions")) as string[];
    expect(files.filter((n) => n.endsWith(".json"))).toHaveLength(1);
    expect(files.filter((n) => n.endsWith(".lock"))).toEqual([]);
  });

  test("--json still ends with a result record when the spend ceiling refuses the run", async () => {
    const s = await serveEdge({ text: "costly", usage: { input: 1_000_000, output: 0 } });
    const home = tempDir();
    const work = tempDir();
    await runShiro(["-p", "first", "-m", "gpt-5-mini"], { baseURL: s.url, cwd: work, home });
    const run = await runShiro(["-c", "-p", "again", "--json", "-m", "gpt-5-mini", "--max-spend", "0.01"], { baseURL: s.url, cwd: work, home });
    expect(run.code).toBe(4);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: "result", status: "spend-limit", exitCode: 4 });
  });
});
