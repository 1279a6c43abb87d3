import { describe, expect, test } from "bun:test";
import { alwaysGrant, commandNames, emptyGrants, isGranted } from "../../cmd/repl/approval-policy.ts";

describe("bash grants", () => {
  test("the commands a line runs", () => {
    expect(commandNames("git status")).toEqual(["git"]);
    expect(commandNames("cd src && FOO=1 npm test | tee out.txt")).toEqual(["cd", "npm", "tee"]);
    expect(commandNames("for f in *.ts; do wc -l $f; done")).toEqual(["wc"]);
    expect(commandNames("echo $(rm -rf /)")).toBeUndefined();
    expect(commandNames("(cd x; make)")).toBeUndefined();
  });

  test("`a` on `git status` allows `git *` and nothing else", () => {
    const grants = emptyGrants();
    const grant = alwaysGrant("bash", "git status");
    expect(grant.label).toBe("git *");
    grant.apply(grants);
    expect(isGranted(grants, "bash", "git diff --stat")).toBe(true);
    expect(isGranted(grants, "bash", "git log && rm -rf build")).toBe(false);
    expect(isGranted(grants, "bash", "git log `rm -rf build`")).toBe(false);
    expect(isGranted(grants, "bash", "npm test")).toBe(false);
    expect(isGranted(grants, "edit_file", "a.ts")).toBe(false);
  });

  test("file tools are granted by tool", () => {
    const grants = emptyGrants();
    const grant = alwaysGrant("edit_file", "src/a.ts");
    expect(grant.label).toBe("edit_file");
    grant.apply(grants);
    expect(isGranted(grants, "edit_file", "other.ts")).toBe(true);
    expect(isGranted(grants, "write_file", "other.ts")).toBe(false);
  });
});
