import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Reply } from "../support/fake-openai.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { toolOutputsIn, WIRES } from "../support/requests.ts";

const serve = useFakeServer();
function homeWithConfig(config: unknown): string {
  const home = tempDir();
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify(config));
  return home;
}

for (const { wire, flags } of WIRES) {
  describe(`permissions over ${wire}`, () => {
    test("the guard refuses destructive commands even with --yolo, and tells the model to ask the user", async () => {
      const work = tempDir();
      writeFileSync(join(work, "keep.txt"), "precious");
      const s = await serve({ toolCalls: [{ name: "bash", input: { command: "cd .. && rm -rf ~" } }] }, { text: "refused" });
      const run = await runShiro(["-p", "clean up", "--yolo", "--json", ...flags], { baseURL: s.url, cwd: work });
      const denied = jsonLines(run.stdout).filter((l) => l.type === "tool-denied");
      expect(denied).toHaveLength(1);
      expect(toolOutputsIn(s.requests[1]!.body).join("")).toMatch(/ask them to run it themselves/);
      expect(existsSync(join(work, "keep.txt"))).toBe(true);
      expect(run.code).toBe(0);
    });

    test(".env is denied even with --yolo; .env.example is readable", async () => {
      const work = tempDir();
      writeFileSync(join(work, ".env"), "SECRET=hunter2");
      writeFileSync(join(work, ".env.example"), "SECRET=");
      const s = await serve(
        { toolCalls: [{ name: "read_file", input: { path: ".env" } }] },
        { toolCalls: [{ name: "read_file", input: { path: ".env.example" } }] },
        { text: "ok" },
      );
      const run = await runShiro(["-p", "read env", "--yolo", "--json", ...flags], { baseURL: s.url, cwd: work });
      expect(JSON.stringify(s.requests)).not.toContain("hunter2");
      expect(jsonLines(run.stdout).at(-1)!.denied.map((d: any) => d.subject)).toEqual([".env"]);
      expect(toolOutputsIn(s.requests[2]!.body).join("")).toContain("SECRET=");
    });

    test("git is judged by its path, whatever the operation: a rule on a folder and the secrets rule apply, other reads run", async () => {
      const work = tempDir();
      Bun.spawnSync(["git", "init", "-q", "-b", "main"], { cwd: work, env: { PATH: process.env.PATH!, HOME: work } });
      writeFileSync(join(work, ".env"), "SECRET=hunter2");
      const home = homeWithConfig({ permission: { git: { "private/**": "deny" } } });
      const s = await serve(
        { toolCalls: [{ name: "git", input: { op: "log", path: "private/plan.md" } }] },
        { toolCalls: [{ name: "git", input: { op: "diff", path: ".env" } }] },
        { toolCalls: [{ name: "git", input: { op: "status" } }] },
        { text: "done" },
      );
      const run = await runShiro(["-p", "look", "--json", ...flags], { baseURL: s.url, cwd: work, home });
      expect(jsonLines(run.stdout).at(-1)!.denied.map((d: any) => d.subject)).toEqual(["log private/plan.md", "diff .env"]);
      expect(toolOutputsIn(s.requests[3]!.body).at(-1)).toContain("## No commits yet on main");
      expect(JSON.stringify(s.requests)).not.toContain("hunter2");
    });

    test("headless runs what the loop runs without a question, whatever the mode: ls runs, touch is denied; a rule saved for this project applies", async () => {
      const work = tempDir();
      writeFileSync(join(work, "listed.txt"), "");
      const home = homeWithConfig({ approvalMode: "auto", projects: { [work]: { permission: { bash: { "touch saved*": "allow" } } } } });
      const s = await serve(
        { toolCalls: [{ name: "bash", input: { command: "ls" } }] },
        { toolCalls: [{ name: "bash", input: { command: "touch x" } }] },
        { toolCalls: [{ name: "bash", input: { command: "touch saved-rule.txt" } }] },
        { text: "done" },
      );
      const run = await runShiro(["-p", "go", "--json", "--mode", "auto", ...flags], { baseURL: s.url, cwd: work, home });
      const lines = jsonLines(run.stdout);
      expect(lines.at(-1)!.denied.map((d: any) => d.subject)).toEqual(["touch x"]);
      expect(lines.find((l) => l.type === "tool-denied")!.shown).toBe("headless without --yolo");
      expect(toolOutputsIn(s.requests[1]!.body).join("")).toContain("listed.txt");
      expect(toolOutputsIn(s.requests[2]!.body).join("")).toContain("shiro is running headless");
      expect(existsSync(join(work, "x"))).toBe(false);
      expect(existsSync(join(work, "saved-rule.txt"))).toBe(true);
      expect(run.code).toBe(0);
    });

    test("config rules: an allowed bash pattern runs headless without --yolo; a deny rule wins over --yolo", async () => {
      const work = tempDir();
      const home = homeWithConfig({ permission: { bash: { "echo *": "allow", "npm publish*": "deny" } } });
      const s = await serve(
        { toolCalls: [{ name: "bash", input: { command: "echo allowed-by-rule" } }] },
        { toolCalls: [{ name: "bash", input: { command: "npm publish --access public" } }] },
        { text: "done" },
      );
      const run = await runShiro(["-p", "go", "--json", ...flags], { baseURL: s.url, cwd: work, home });
      expect(toolOutputsIn(s.requests[1]!.body).join("")).toContain("allowed-by-rule");
      expect(jsonLines(run.stdout).at(-1)!.denied.map((d: any) => d.subject)).toEqual(["npm publish --access public"]);
      s.push({ toolCalls: [{ name: "bash", input: { command: "npm publish" } }] }, { text: "still no" });
      const yolo = await runShiro(["-p", "go", "--json", "--yolo", ...flags], { baseURL: s.url, cwd: work, home });
      expect(jsonLines(yolo.stdout).at(-1)!.denied).toHaveLength(1);
    });

    test("a typo in a permission rule is a config error, never wider access", async () => {
      const home = homeWithConfig({ permission: { bash: { "git *": "alow" } } });
      const run = await runShiro(["-p", "hi", ...flags], { baseURL: "http://127.0.0.1:9/v1", home });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("permission");
    });

    test("the same call three times in a turn is stopped as not making progress", async () => {
      const work = tempDir();
      const call = { toolCalls: [{ name: "bash", input: { command: "echo again" } }] };
      const s = await serve(call, call, call, { text: "I'll stop" });
      const run = await runShiro(["-p", "loop", "--yolo", "--json", ...flags], { baseURL: s.url, cwd: work });
      const denied = jsonLines(run.stdout).at(-1)!.denied;
      expect(denied).toHaveLength(1);
      expect(toolOutputsIn(s.requests[3]!.body).join("")).toMatch(/progress/i);
    });
  });
}

test("'always' grants are never written to disk", async () => {
  // Headless runs cannot grant; what matters is that nothing under SHIRO_HOME records permissions.
  const home = tempDir();
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: "echo hi" } }] }, { text: "ok" });
  await runShiro(["-p", "go", "--yolo"], { baseURL: s.url, home });
  const all = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? all(join(dir, e.name)) : [e.name]));
  expect(all(join(home, ".shiro-neko")).filter((n) => /perm|grant/i.test(n))).toEqual([]);
});
