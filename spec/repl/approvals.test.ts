import { describe, expect, test } from "bun:test";
import { alwaysGrant, commandNames, emptyGrants, isGranted } from "../../cmd/repl/approval-policy.ts";
import { unifiedDiff } from "../../lib/unified-diff.ts";

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

describe("unified diff", () => {
  test("one changed line with context and counts", () => {
    const before = "a\nb\nc\nd\ne\nf\ng\nh\n";
    const after = "a\nb\nc\nd\nE\nf\ng\nh\n";
    const diff = unifiedDiff(before, after);
    expect(diff.added).toBe(1);
    expect(diff.removed).toBe(1);
    expect(diff.lines.map((l) => `${l.kind[0]}${l.text}`)).toEqual(["h@@ -2,7 +2,7 @@", "cb", "cc", "cd", "re", "aE", "cf", "cg", "ch"]);
  });

  test("a new file is all additions", () => {
    const diff = unifiedDiff("", "x\ny\n");
    expect([diff.added, diff.removed]).toEqual([2, 0]);
    expect(diff.lines[0]!.text).toBe("@@ -0,0 +1,2 @@");
  });

  test("distant changes make separate hunks", () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const changed = [...lines];
    changed[2] = "two";
    changed[25] = "twenty-five";
    const diff = unifiedDiff(lines.join("\n"), changed.join("\n"));
    expect(diff.lines.filter((l) => l.kind === "hunk")).toHaveLength(2);
  });

  test("no change, no hunks", () => {
    expect(unifiedDiff("same\n", "same\n").lines).toEqual([]);
  });
});
