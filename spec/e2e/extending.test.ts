// Skills, custom slash commands and web_fetch, through the binary, read off what the fake received.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { instructionsIn, toolOutputsIn, WIRES } from "../support/requests.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { lastUserText } from "../repl/pty.ts";

const serve = useFakeServer();
const write = (path: string, text: string) => (mkdirSync(dirname(path), { recursive: true }), writeFileSync(path, text));
const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.name ?? t.function?.name);
const skillMd = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

/** A home and a project with skills in four of the folders, two of them naming the same skill, and one broken file. */
function withSkills() {
  const home = tempDir();
  const cwd = tempDir();
  write(join(home, ".claude/skills/deploy/SKILL.md"), skillMd("deploy", "Deploy from the user's claude folder", "OLD deploy steps"));
  write(join(home, ".shiro-neko/skills/changelog/SKILL.md"), skillMd("changelog", "Write a changelog entry", "Steps: read git log, then write CHANGELOG.md."));
  write(join(cwd, ".agents/skills/lint/SKILL.md"), skillMd("lint", "Run the project's linters", "Run bun x biome check."));
  write(join(cwd, ".shiro/skills/deploy/SKILL.md"), skillMd("deploy", "Deploy the site to staging", "1. Run scripts/deploy.sh staging\n2. Check the health URL."));
  write(join(cwd, ".shiro/skills/deploy/scripts/deploy.sh"), "echo deploying\n");
  write(join(cwd, ".shiro/skills/broken/SKILL.md"), "---\ndescription: forgot the name\n---\nbody\n");
  return { home, cwd };
}

for (const { wire, flags } of WIRES) {
  describe(`skills over ${wire}`, () => {
    test("the system prompt lists names and descriptions only; the skill tool returns the instructions and files; a broken file is one notice", async () => {
      const { home, cwd } = withSkills();
      const s = await serve({ toolCalls: [{ name: "skill", input: { name: "deploy" } }] }, { text: "deployed" });
      const run = await runShiro(["-p", "deploy to staging", "--json", ...flags], { baseURL: s.url, home, cwd });
      expect(run.code).toBe(0);
      const instructions = instructionsIn(s.requests[0]!.body);
      expect(instructions).toContain("- changelog: Write a changelog entry\n- deploy: Deploy the site to staging\n- lint: Run the project's linters");
      expect(instructions).not.toContain("Deploy from the user's claude folder");
      expect(instructions).not.toContain("scripts/deploy.sh");
      expect(instructions).not.toContain("broken");
      expect(toolNames(s.requests[0]!.body)).toContain("skill");
      const output = toolOutputsIn(s.requests[1]!.body).join("\n");
      expect(output).toContain("1. Run scripts/deploy.sh staging\n2. Check the health URL.");
      expect(output).toContain("- .shiro/skills/deploy/scripts/deploy.sh");
      expect(output).not.toContain("OLD deploy steps");
      // The system prompt is the same on every request of the session.
      expect(instructionsIn(s.requests[1]!.body)).toBe(instructions);
      const notices = jsonLines(run.stdout).filter((l) => l.type === "notice").map((l) => l.message);
      expect(notices.filter((m) => m.includes("broken/SKILL.md"))).toEqual([
        'skill .shiro/skills/broken/SKILL.md (project) is not used: its front matter has no "name" (start the file with ---, name: …, description: …, ---)',
      ]);
    });

    test("without skills there is no skill tool and no skills section", async () => {
      const s = await serve({ text: "ok" });
      const run = await runShiro(["-p", "hi", ...flags], { baseURL: s.url });
      expect(run.code).toBe(0);
      expect(toolNames(s.requests[0]!.body)).not.toContain("skill");
      expect(instructionsIn(s.requests[0]!.body)).not.toContain("Skills (");
    });
  });

  describe(`custom commands headless over ${wire}`, () => {
    test('-p "/review src/a.ts" sends the expanded body, with its agent and model for the run', async () => {
      const home = tempDir();
      const cwd = tempDir();
      write(join(cwd, ".shiro/commands/review.md"), "---\ndescription: Review one file\nagent: review\nmodel: gpt-5.2\n---\nReview $1 for defects ($ARGUMENTS).\n");
      const s = await serve({ text: "looks fine" });
      const run = await runShiro(["-p", "/review src/a.ts", ...flags], { baseURL: s.url, home, cwd });
      expect(run.code).toBe(0);
      const body = s.requests[0]!.body;
      expect(lastUserText(body)).toBe("Review src/a.ts for defects (src/a.ts).");
      expect(body.model).toBe("gpt-5.2");
      expect(instructionsIn(body)).toContain("Mode: review.");
      expect(toolNames(body)).not.toContain("write_file");
    });

    test("a command that names its model runs on a provider with no default model, none chosen otherwise", async () => {
      const home = tempDir();
      const cwd = tempDir();
      write(join(cwd, ".shiro/commands/review.md"), "---\nmodel: qwen3:8b\n---\nReview $1.\n");
      const s = await serve({ text: "looks fine" });
      const run = await runShiro(["-p", "/review src/a.ts", "--provider", "ollama", ...flags], { baseURL: s.url, home, cwd });
      expect(run.stderr).not.toContain("has no default model");
      expect(run.code).toBe(0);
      expect(s.requests[0]!.body.model).toBe("qwen3:8b");
      // Any other prompt still has no model, and is told to choose one.
      const plain = await runShiro(["-p", "hi", "--provider", "ollama", ...flags], { baseURL: s.url, home, cwd });
      expect(plain.code).toBe(2);
      expect(plain.stderr).toContain("ollama has no default model");
    });

    test("a command in $SHIRO_HOME/commands works too, piped text follows it; a file named like a built-in is not used, with a notice", async () => {
      const home = tempDir();
      const cwd = tempDir();
      write(join(home, ".shiro-neko/commands/explain.md"), "Explain this code simply.");
      write(join(cwd, ".shiro/commands/help.md"), "---\ndescription: mine\n---\nhelp me");
      const s = await serve({ text: "explained" });
      const run = await runShiro(["-p", "/explain", ...flags], { baseURL: s.url, home, cwd, stdin: "const a = 1;\n" });
      expect(run.code).toBe(0);
      expect(lastUserText(s.requests[0]!.body)).toBe("Explain this code simply.\n\nconst a = 1;");
      expect(run.stderr).toContain("custom command .shiro/commands/help.md is not used: /help is a built-in command; rename the file to use it.");
    });
  });
}

describe("the project's skill or command that replaces the user's own", () => {
  test("headless: said once on stderr, for the skill and for the command; the project's runs", async () => {
    const home = tempDir();
    const cwd = tempDir();
    write(join(home, ".claude/skills/deploy/SKILL.md"), skillMd("deploy", "My own deploy", "my steps"));
    write(join(cwd, ".shiro/skills/deploy/SKILL.md"), skillMd("deploy", "The repository's deploy", "its steps"));
    write(join(home, ".shiro-neko/commands/review.md"), "My own review of $1.\n");
    write(join(cwd, ".shiro/commands/review.md"), "The repository's review of $1.\n");
    write(join(home, ".shiro-neko/commands/mine.md"), "Only mine.\n");
    const s = await serve({ text: "ok" });
    const run = await runShiro(["-p", "/review a.ts"], { baseURL: s.url, home, cwd });
    expect(run.code).toBe(0);
    expect(lastUserText(s.requests[0]!.body)).toBe("The repository's review of a.ts.");
    const notes = run.stderr.split("\n").filter((line) => line.includes("replaces your own"));
    expect(notes).toEqual([
      "note: skill deploy: this project's .shiro/skills/deploy replaces your own from ~/.claude/skills; the model gets the project's. Rename one to keep both.",
      "note: /review: this project's .shiro/commands/review.md replaces your own $SHIRO_HOME/commands/review.md; typing /review runs the project's. Rename one to keep both.",
    ]);
  });
});

describe("a custom command whose file was not used, headless", () => {
  test('-p "/review x" stops with one line saying why and where, exit 2, nothing sent to the model', async () => {
    const cwd = tempDir();
    write(join(cwd, ".shiro/commands/review.md"), "---\ndescription: unclosed\nReview $1.\n");
    const s = await serve();
    const run = await runShiro(["-p", "/review src/a.ts"], { baseURL: s.url, home: tempDir(), cwd });
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr: "shiro: /review was not loaded: the front matter has no closing --- line (.shiro/commands/review.md). To use it, fix the file and run this again.\n",
    });
    expect(s.requests).toHaveLength(0);
  });
});

describe("web_fetch through the binary", () => {
  const site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request: Request): Response {
      const path = new URL(request.url).pathname;
      if (path === "/docs") return new Response("<html><head><title>Widget docs</title></head><body><nav>Menu</nav><article><h1>Widget</h1><p>See <a href='/api'>the API</a>.</p><pre><code>widget --help</code></pre></article></body></html>", { headers: { "content-type": "text/html" } });
      if (path === "/away") return new Response(null, { status: 302, headers: { location: "http://127.0.0.2:9/" } });
      return new Response("not here", { status: 404 });
    },
  });
  afterAll(() => site.stop(true));
  const host = `127.0.0.1:${site.port}`;
  const homeWith = (config: unknown) => {
    const home = tempDir();
    write(join(home, ".shiro-neko/config.json"), JSON.stringify(config));
    return home;
  };

  for (const { wire, flags } of WIRES) {
    test(`over ${wire}: an allowed local host comes back as Markdown; a redirect to another loopback address is refused`, async () => {
      const home = homeWith({ webFetch: { allowHosts: [host] }, permission: { web_fetch: { [`http://${host}/*`]: "allow" } } });
      const s = await serve(
        { toolCalls: [{ name: "web_fetch", input: { url: `http://${host}/docs` } }] },
        { toolCalls: [{ name: "web_fetch", input: { url: `http://${host}/away` } }] },
        { text: "read it" },
      );
      const run = await runShiro(["-p", "read the docs", "--json", ...flags], { baseURL: s.url, home });
      expect(run.code).toBe(0);
      const page = toolOutputsIn(s.requests[1]!.body).join("\n");
      expect(page).toContain("# Widget docs");
      expect(page).toContain("# Widget\n\nSee [the API](http://" + host + "/api).\n\n```\nwidget --help\n```");
      expect(page).not.toContain("Menu");
      const refused = toolOutputsIn(s.requests[2]!.body).join("\n");
      expect(refused).toContain("refused 127.0.0.2:9: it resolves to 127.0.0.2, this machine (loopback)");
    });
  }

  test("without allowHosts loopback is refused even when the call is allowed; with no rule, headless does not run it", async () => {
    const call = { toolCalls: [{ name: "web_fetch", input: { url: `http://${host}/docs` } }] };
    const s = await serve(call, { text: "refused" }, call, { text: "not run" });
    const allowed = homeWith({ permission: { web_fetch: "allow" } });
    const first = await runShiro(["-p", "fetch", "--json"], { baseURL: s.url, home: allowed });
    expect(first.code).toBe(0);
    expect(toolOutputsIn(s.requests[1]!.body).join("\n")).toContain(`refused ${host}: it resolves to 127.0.0.1, this machine (loopback)`);
    const plain = await runShiro(["-p", "fetch", "--json"], { baseURL: s.url });
    expect(plain.code).toBe(0);
    expect(jsonLines(plain.stdout).filter((l) => l.type === "tool-denied").map((l) => l.tool)).toEqual(["web_fetch"]);
  });

  test("read-only agents are not offered web_fetch unless the config says so", async () => {
    const s = await serve({ text: "a" }, { text: "b" });
    expect((await runShiro(["-p", "plan", "--agent", "plan"], { baseURL: s.url })).code).toBe(0);
    expect((await runShiro(["-p", "plan", "--agent", "plan"], { baseURL: s.url, home: homeWith({ webFetch: { readOnlyAgents: true } }) })).code).toBe(0);
    expect(toolNames(s.requests[0]!.body)).not.toContain("web_fetch");
    expect(toolNames(s.requests[1]!.body)).toContain("web_fetch");
  });
});
