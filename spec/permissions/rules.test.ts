import { describe, expect, test } from "bun:test";
import { decideCall, workspacePath } from "../../lib/permissions/decide.ts";
import { defaultDecision, isProtectedSecret, type GatedTool } from "../../lib/permissions/defaults.ts";
import { flattenRules, lastMatchingRule } from "../../lib/permissions/rules.ts";
import type { PermissionConfig } from "../../lib/config/permission-schema.ts";
import { createMemoryStore } from "../../lib/memory/store.ts";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import { toolsFor } from "../../lib/tools/index.ts";
import { tempDir } from "../support/cli.ts";

const where = { root: "/w/proj", cwd: "/w/proj" };
const tools = toolsFor({ notebook: createNotebook(), memory: createMemoryStore({ home: tempDir(), projectRoot: tempDir() }) });
const tool = (name: string) => tools.find((t) => t.name === name)!;
const bash = tool("bash");
const decide = (config: PermissionConfig, gated: GatedTool, subject: string) => decideCall(flattenRules(config), gated, subject, where).decision;

describe("defaults", () => {
  test("reads, searches, memory and the task list are allowed", () => {
    for (const name of ["read_file", "glob", "grep", "list_dir", "remember", "recall", "forget", "todo_write"]) {
      expect(defaultDecision(tool(name), "x")).toBe("allow");
    }
  });

  test("writes and bash ask", () => {
    for (const name of ["write_file", "edit_file", "multi_edit", "bash"]) {
      expect(defaultDecision(tool(name), "x")).toBe("ask");
    }
  });

  test("read_file of a secrets file is denied; .env.example is not", () => {
    for (const path of [".env", ".env.local", "config/.env.production", "certs/server.pem", "/abs/.ENV"]) {
      expect(defaultDecision(tool("read_file"), path)).toBe("deny");
    }
    expect(defaultDecision(tool("read_file"), ".env.example")).toBe("allow");
    expect(defaultDecision(tool("read_file"), "src/env.ts")).toBe("allow");
  });

  test("only a path tool that shows the file's content is denied a secrets file; writes still ask", () => {
    expect(defaultDecision(tool("write_file"), ".env")).toBe("ask");
    expect(defaultDecision(tool("list_dir"), ".env")).toBe("allow"); // `python -m venv .env` makes a directory
    expect(defaultDecision(tool("grep"), ".env")).toBe("allow"); // a pattern, not a path; grep skips secrets files itself
  });

  test("a tool's own default applies, and one that mutates is never allowed by default, whatever it says", () => {
    const lookup: GatedTool = { name: "lookup", mutates: false, defaultDecision: "ask", subject: { kind: "text" } };
    expect(defaultDecision(lookup, "")).toBe("ask");
    expect(defaultDecision({ ...lookup, name: "deploy", mutates: true, defaultDecision: "allow" }, "")).toBe("ask");
    expect(defaultDecision({ ...tool("grep"), mutates: true }, "x")).toBe("ask");
  });
});

describe("secrets files named in a command", () => {
  const named = (command: string) => isProtectedSecret(bash, command);

  test("the words bash would see, wherever they are", () => {
    for (const command of [
      "cat .env",
      "source .env.local",
      "grep KEY < .env",
      "cat certs/server.pem",
      'cat "$HOME/app/.env"',
      "grep -r KEY --include=.env .",
      "dd if=.env of=/tmp/x",
      "python -c \"print(open('.env').read())\"",
      "bash -c 'cat .env'",
      "echo $(cat .env)",
      "cat `ls .env`",
      "sh <<EOF\ncat .env\nEOF",
      "X=1 cat .env | head",
    ]) {
      expect({ command, named: named(command) }).toEqual({ command, named: true });
    }
    for (const command of ["cat .env.example", "ls src", "cat env.ts", "echo done"]) expect({ command, named: named(command) }).toEqual({ command, named: false });
  });

  test("quoting and escapes are read as bash reads them, so a split or escaped name is still caught", () => {
    // The old check split the raw line at quotes and blanks and missed each of these.
    for (const command of ['cat .e"nv"', "cat .e'nv'", "cat .\\env", "cat $'\\x2eenv'", "cat .en\\\nv"]) {
      expect({ command, named: named(command) }).toEqual({ command, named: true });
    }
  });

  test("a comment runs nothing, so a name in it is no reason to deny", () => {
    expect(named("git status # then look at .env")).toBe(false);
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
    expect(decide(config, tool("edit_file"), "src/a.ts")).toBe("allow");
    expect(decide(config, tool("write_file"), "src/a.ts")).toBe("ask");
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
    expect(decide({ "*_file": "deny" }, tool("write_file"), "a")).toBe("deny");
    expect(decide({ "*_file": "deny" }, tool("multi_edit"), "a")).toBe("ask");
    expect(decide({ "*": "ask" }, tool("glob"), "**/*.ts")).toBe("ask");
  });

  test("config rules cannot open a secrets file to read_file", () => {
    expect(decide({ "*": "allow", read_file: { "*": "allow", ".env": "allow" } }, tool("read_file"), ".env")).toBe("deny");
  });

  test("file paths are matched relative to the workspace root, whatever form the model used", () => {
    const config: PermissionConfig = { write_file: { "*": "allow", "secrets/*": "deny" } };
    const write = tool("write_file");
    expect(decide(config, write, "secrets/key.txt")).toBe("deny");
    expect(decide(config, write, "./secrets/key.txt")).toBe("deny");
    expect(decide(config, write, "src/../secrets/key.txt")).toBe("deny");
    expect(decide(config, write, "/w/proj/secrets/key.txt")).toBe("deny");
    expect(decide(config, write, "src/a.ts")).toBe("allow");
    expect(workspacePath("../other/x", where)).toBe("/w/other/x");
    expect(workspacePath(".", where)).toBe(".");
    expect(workspacePath("a.ts", { root: "/w/proj", cwd: "/w/proj/sub" })).toBe("sub/a.ts");
  });

  test("every mutating path tool from toolsFor has its rules matched on workspace paths, with no list of names to keep up", () => {
    const pathTools = tools.filter((t) => t.mutates && t.subject.kind === "path");
    expect(pathTools.map((t) => t.name)).toEqual(["write_file", "edit_file", "multi_edit", "apply_patch", "move_file", "delete_file"]);
    for (const gated of pathTools) {
      const config: PermissionConfig = { [gated.name]: { "src/*": "allow" } };
      for (const path of ["./src/a.ts", "src/../src/a.ts", "/w/proj/src/a.ts"]) {
        expect({ tool: gated.name, path, decision: decide(config, gated, path) }).toEqual({ tool: gated.name, path, decision: "allow" });
      }
      expect(decide(config, gated, "./lib/a.ts")).toBe("ask");
    }
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
