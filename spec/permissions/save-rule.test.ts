import { expect, test } from "bun:test";
import * as v from "valibot";
import { ConfigFile } from "../../lib/config/schema.ts";
import { ruleSection, ruleText, withAllowRule } from "../../lib/permissions/save-rule.ts";
import { flattenRules, lastMatchingRule } from "../../lib/permissions/rules.ts";

test("a saved grant becomes an allow rule placed last, so it wins over what was there", () => {
  const before = { bash: { "git *": "ask" as const, "npm *": "deny" as const }, edit_file: "ask" as const };
  const after = withAllowRule(before, { tool: "bash", pattern: "git *" });
  expect(Object.keys(after)).toEqual(["edit_file", "bash"]);
  expect(Object.entries(after.bash as object)).toEqual([["npm *", "deny"], ["git *", "allow"]]);
  expect(lastMatchingRule(flattenRules(after), "bash", "git status")?.decision).toBe("allow");
  expect(before.bash["git *"]).toBe("ask"); // pure
});

test("a tool with one decision keeps it as \"*\" before the new pattern; a whole-tool grant replaces it", () => {
  expect(withAllowRule({ bash: "ask" }, { tool: "bash", pattern: "touch *" })).toEqual({ bash: { "*": "ask", "touch *": "allow" } });
  expect(withAllowRule(undefined, { tool: "write_file" })).toEqual({ write_file: "allow" });
  expect(withAllowRule({ write_file: { "src/*": "deny" } }, { tool: "write_file" })).toEqual({ write_file: "allow" });
});

test("how the rule and its section read before saving", () => {
  expect(ruleText({ tool: "bash", pattern: "git *" })).toBe('"bash": { "git *": "allow" }');
  expect(ruleText({ tool: "edit_file" })).toBe('"edit_file": "allow"');
  expect(ruleSection("global", "/w/app")).toBe("permission");
  expect(ruleSection("project", "/w/app")).toBe('projects."/w/app".permission');
});

test("the projects section is part of the config schema: absolute roots with a permission section only", () => {
  expect(v.safeParse(ConfigFile, { projects: { "/w/app": { permission: { bash: { "ls*": "allow" } } } } }).success).toBe(true);
  expect(v.safeParse(ConfigFile, { projects: { "relative/app": { permission: {} } } }).success).toBe(false);
  expect(v.safeParse(ConfigFile, { projects: { "/w/app": { model: "x" } } }).success).toBe(false);
  expect(v.safeParse(ConfigFile, { readOnlyCommands: { add: ["jq", "npm ls"] }, approvalMode: "edits", bell: false }).success).toBe(true);
  expect(v.safeParse(ConfigFile, { readOnlyCommands: { add: ["rm -rf /"] } }).success).toBe(false);
  expect(v.safeParse(ConfigFile, { approvalMode: "yolo" }).success).toBe(false);
});
