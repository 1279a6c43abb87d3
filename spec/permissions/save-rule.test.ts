import { expect, test } from "bun:test";
import * as v from "valibot";
import { ConfigFile } from "../../lib/config/schema.ts";
import { ruleSection, ruleText, withSavedGrant } from "../../lib/permissions/save-rule.ts";

test('a saved "always" is added to alwaysAllow under its tool, once, and the permission rules are left alone', () => {
  const before = { bash: ["npm test *"] };
  const after = withSavedGrant(before, { tool: "bash", pattern: "git commit *" });
  expect(after).toEqual({ bash: ["npm test *", "git commit *"] });
  expect(withSavedGrant(after, { tool: "bash", pattern: "git commit *" })).toEqual(after);
  expect(withSavedGrant(undefined, { tool: "write_file" })).toEqual({ write_file: ["*"] });
  expect(before.bash).toEqual(["npm test *"]); // pure
});

test("how the entry and its section read before saving", () => {
  expect(ruleText({ tool: "bash", pattern: "git commit *" })).toBe('"bash": ["git commit *"]');
  expect(ruleText({ tool: "edit_file" })).toBe('"edit_file": ["*"]');
  expect(ruleText({ tool: "bash", pattern: "npm test *", also: ["npm run *"] })).toBe('"bash": ["npm test *", "npm run *"]');
  expect(ruleSection("global", "/w/app")).toBe("alwaysAllow");
  expect(ruleSection("project", "/w/app")).toBe('projects."/w/app".alwaysAllow');
});

test("the projects section is part of the config schema: absolute roots with permission and alwaysAllow only", () => {
  expect(v.safeParse(ConfigFile, { projects: { "/w/app": { permission: { bash: { "ls*": "allow" } }, alwaysAllow: { bash: ["npm test *"] } } } }).success).toBe(true);
  expect(v.safeParse(ConfigFile, { alwaysAllow: { bash: ["git commit *"], write_file: ["*"] } }).success).toBe(true);
  expect(v.safeParse(ConfigFile, { alwaysAllow: { bash: "git *" } }).success).toBe(false);
  expect(v.safeParse(ConfigFile, { alwaysAllow: { bash: [""] } }).success).toBe(false);
  expect(v.safeParse(ConfigFile, { projects: { "relative/app": { permission: {} } } }).success).toBe(false);
  expect(v.safeParse(ConfigFile, { projects: { "/w/app": { model: "x" } } }).success).toBe(false);
  expect(v.safeParse(ConfigFile, { readOnlyCommands: { add: ["jq", "npm ls"] }, approvalMode: "edits", bell: false }).success).toBe(true);
  expect(v.safeParse(ConfigFile, { readOnlyCommands: { add: ["rm -rf /"] } }).success).toBe(false);
  expect(v.safeParse(ConfigFile, { approvalMode: "yolo" }).success).toBe(false);
});
