import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { loadConfigFile } from "../../lib/config/load.ts";
import { GuardConfig, PermissionConfig } from "../../lib/config/permission-schema.ts";
import { tempDir } from "../support/cli.ts";

/** What valibot reports first for a value the schema refuses: where (its dot path) and the message. */
function firstIssue(schema: v.GenericSchema, value: unknown): { at: string | null; message: string } | undefined {
  const parsed = v.safeParse(schema, value);
  return parsed.success ? undefined : { at: v.getDotPath(parsed.issues[0]), message: parsed.issues[0].message };
}

describe("permission config schema", () => {
  test("accepts decisions and subject-pattern objects, keeping key order", () => {
    const config = { bash: { "*": "ask", "git status*": "allow", "npm publish*": "deny" }, "edit_*": "allow" };
    const parsed = v.parse(PermissionConfig, config);
    expect(parsed).toEqual(config as never);
    expect(Object.keys(parsed)).toEqual(["bash", "edit_*"]);
    expect(Object.keys(parsed.bash as object)).toEqual(["*", "git status*", "npm publish*"]);
  });

  test("an unknown decision word is rejected, naming the field and the word", () => {
    expect(firstIssue(PermissionConfig, { bash: "alow" })).toEqual({ at: "bash", message: 'must be "allow", "ask" or "deny" (got "alow")' });
    expect(firstIssue(PermissionConfig, { bash: { "git *": "yes" } })).toEqual({ at: "bash.git *", message: 'must be "allow", "ask" or "deny" (got "yes")' });
    expect(firstIssue(PermissionConfig, { bash: { "git *": "ALLOW" } })?.message).toContain('(got "ALLOW")');
  });

  test("a value that is neither a decision nor an object is rejected", () => {
    expect(firstIssue(PermissionConfig, { bash: true })).toMatchObject({ at: "bash", message: expect.stringContaining("must be") });
    expect(firstIssue(PermissionConfig, { bash: ["allow"] })).toMatchObject({ at: "bash", message: expect.stringContaining("must be") });
    expect(firstIssue(PermissionConfig, "allow")).toMatchObject({ at: null, message: expect.stringContaining("must be an object") });
  });

  test("guard.allow takes patterns that name something, and nothing else", () => {
    expect(v.parse(GuardConfig, { allow: ["git push --force-with-lease*"] })).toEqual({ allow: ["git push --force-with-lease*"] });
    expect(firstIssue(GuardConfig, { allow: ["*"] })?.message).toContain("turn the guard off");
    expect(firstIssue(GuardConfig, { allow: [" * ? "] })?.message).toContain("turn the guard off");
    expect(firstIssue(GuardConfig, { allow: "rm *" })).toMatchObject({ at: "allow", message: expect.stringContaining("must be a list") });
    expect(v.safeParse(GuardConfig, { allw: [] }).success).toBe(false);
  });
});

describe("config file loading", () => {
  test("a typo in a decision stops loading with the field named: it never widens access", async () => {
    const path = join(tempDir(), "config.json");
    writeFileSync(path, JSON.stringify({ permission: { bash: { "*": "ask", "git *": "alow" } } }));
    await expect(loadConfigFile(path)).rejects.toThrow(`field permission.bash."git *" must be "allow", "ask" or "deny" (got "alow")`);
  });

  test("a valid permission and guard section loads", async () => {
    const path = join(tempDir(), "config.json");
    const config = { permission: { "*": "ask", read_file: "allow" }, guard: { allow: ["git push --force-with-lease*"] } };
    writeFileSync(path, JSON.stringify(config));
    expect(await loadConfigFile(path)).toEqual(config as never);
  });
});
