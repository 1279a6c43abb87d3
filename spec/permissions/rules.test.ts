import { describe, expect, test } from "bun:test";
import { decideCall, workspacePath } from "../../lib/permissions/decide.ts";
import { DEFAULT_DECISIONS, defaultDecision } from "../../lib/permissions/defaults.ts";
import { flattenRules, lastMatchingRule } from "../../lib/permissions/rules.ts";
import type { PermissionConfig } from "../../lib/config/permission-schema.ts";

const where = { root: "/w/proj", cwd: "/w/proj" };
const bash = { name: "bash", mutates: true };
const decide = (config: PermissionConfig, tool: { name: string; mutates: boolean }, subject: string) =>
  decideCall(flattenRules(config), tool, subject, where).decision;

describe("defaults", () => {
  test("reads, searches, memory and the task list are allowed", () => {
    for (const name of ["read_file", "glob", "grep", "list_dir", "remember", "recall", "forget", "todo_write"]) {
      expect(defaultDecision({ name, mutates: false }, "x")).toBe("allow");
    }
  });

  test("writes and bash ask", () => {
    for (const name of ["write_file", "edit_file", "multi_edit", "bash"]) {
      expect(defaultDecision({ name, mutates: true }, "x")).toBe("ask");
    }
  });

  test("read_file of a secrets file is denied; .env.example is not", () => {
    for (const path of [".env", ".env.local", "config/.env.production", "certs/server.pem", "/abs/.ENV"]) {
      expect(defaultDecision({ name: "read_file", mutates: false }, path)).toBe("deny");
    }
    expect(defaultDecision({ name: "read_file", mutates: false }, ".env.example")).toBe("allow");
    expect(defaultDecision({ name: "read_file", mutates: false }, "src/env.ts")).toBe("allow");
  });

  test("an unknown tool asks when it mutates and is allowed when it does not", () => {
    expect(defaultDecision({ name: "deploy", mutates: true }, "")).toBe("ask");
    expect(defaultDecision({ name: "lookup", mutates: false }, "")).toBe("allow");
  });

  test("a mutating tool is never allowed by default, even under a read-only tool's name", () => {
    expect(defaultDecision({ name: "grep", mutates: true }, "x")).toBe("ask");
    expect(DEFAULT_DECISIONS.bash).toBe("ask");
  });
});

describe("rules", () => {
  test("flattening keeps reading order across the whole permission config", () => {
    const rules = flattenRules({ bash: { "*": "ask", "git status*": "allow" }, "edit_*": "allow", "*": "deny" });
    expect(rules.map((rule) => rule.label)).toEqual([
      'permission."bash"."*"',
      'permission."bash"."git status*"',
      'permission."edit_*"',
      'permission."*"',
    ]);
  });

  test("the last matching rule wins", () => {
    const config: PermissionConfig = { bash: { "*": "ask", "git status*": "allow", "npm publish*": "deny" }, "edit_*": "allow" };
    expect(decide(config, bash, "git status --short")).toBe("allow");
    expect(decide(config, bash, "npm publish --tag next")).toBe("deny");
    expect(decide(config, bash, "npm test")).toBe("ask");
    expect(decide(config, { name: "edit_file", mutates: true }, "src/a.ts")).toBe("allow");
    expect(decide(config, { name: "write_file", mutates: true }, "src/a.ts")).toBe("ask");
  });

  test("a broad rule written later overrides a specific one written earlier", () => {
    expect(decide({ bash: { "git push*": "deny" }, "*": "allow" }, bash, "git push")).toBe("allow");
    expect(decide({ "*": "allow", bash: { "git push*": "deny" } }, bash, "git push")).toBe("deny");
    expect(decide({ bash: { "git *": "allow", "git push*": "ask" } }, bash, "git push origin x")).toBe("ask");
    expect(decide({ bash: { "git push*": "ask", "git *": "allow" } }, bash, "git push origin x")).toBe("allow");
  });

  test("no matching rule falls back to the tool's default", () => {
    const rules = flattenRules({ bash: { "git *": "allow" } });
    expect(lastMatchingRule(rules, "bash", "ls")).toBeUndefined();
    expect(decideCall(rules, bash, "ls", where)).toMatchObject({ decision: "ask", rule: undefined });
  });

  test("tool names can be globs", () => {
    expect(decide({ "*_file": "deny" }, { name: "write_file", mutates: true }, "a")).toBe("deny");
    expect(decide({ "*_file": "deny" }, { name: "multi_edit", mutates: true }, "a")).toBe("ask");
    expect(decide({ "*": "ask" }, { name: "glob", mutates: false }, "**/*.ts")).toBe("ask");
  });

  test("config rules cannot open a secrets file to read_file", () => {
    expect(decide({ "*": "allow", read_file: { "*": "allow", ".env": "allow" } }, { name: "read_file", mutates: false }, ".env")).toBe("deny");
  });

  test("file paths are matched relative to the workspace root, whatever form the model used", () => {
    const config: PermissionConfig = { write_file: { "*": "allow", "secrets/*": "deny" } };
    const write = { name: "write_file", mutates: true };
    expect(decide(config, write, "secrets/key.txt")).toBe("deny");
    expect(decide(config, write, "./secrets/key.txt")).toBe("deny");
    expect(decide(config, write, "src/../secrets/key.txt")).toBe("deny");
    expect(decide(config, write, "/w/proj/secrets/key.txt")).toBe("deny");
    expect(decide(config, write, "src/a.ts")).toBe("allow");
    expect(workspacePath("../other/x", where)).toBe("/w/other/x");
    expect(workspacePath(".", where)).toBe(".");
    expect(workspacePath("a.ts", { root: "/w/proj", cwd: "/w/proj/sub" })).toBe("sub/a.ts");
  });

  test("bash: every command of a compound line is judged, and the strictest answer wins", () => {
    const config: PermissionConfig = { bash: { "git status*": "allow", "npm publish*": "deny", "ls*": "allow" } };
    expect(decide(config, bash, "git status; rm -rf src")).toBe("ask");
    expect(decide(config, bash, "git status && ls -la")).toBe("allow");
    expect(decide(config, bash, "cd pkg && npm publish")).toBe("deny");
    expect(decide(config, bash, "ls $(npm publish)")).toBe("deny");
    expect(decide(config, bash, "bash -c 'npm publish'")).toBe("deny");
    expect(decide(config, bash, "cd sub && git status")).toBe("allow");
  });
});
