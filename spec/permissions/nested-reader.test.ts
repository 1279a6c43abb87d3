// One nested-script reader for the guard and the rules: whatever form hides a command, a deny rule
// on its program matches it, and the guard judges it; code shiro cannot read asks where a deny rule
// could apply, and is refused headless and under --yolo.
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { subjectOf } from "../../lib/tools/define.ts";
import { coreTools } from "../../lib/tools/index.ts";
import { commandParts } from "../../lib/permissions/command-parts.ts";
import { decideCall } from "../../lib/permissions/decide.ts";
import { guardCommand } from "../../lib/permissions/guard.ts";
import { flattenRules } from "../../lib/permissions/rules.ts";
import { createPermissionPolicy, type AskAnswer, type PermissionPolicyOptions, type PermissionQuestion } from "../../lib/permissions/policy.ts";
import { tempDir } from "../support/cli.ts";

const bash = coreTools.find((t) => t.name === "bash")!;
const root = tempDir("shiro-nested-");
mkdirSync(join(root, ".git"));
const where = { root, cwd: root };
const denyCurl = flattenRules({ bash: { "*": "allow", "curl *": "deny" } });
const rule = (command: string) => decideCall(denyCurl, bash, command, where);
const guard = (command: string) => guardCommand(command, { root, home: "/nonexistent-home" });

/** Forms that hide a command; `X` is replaced by the command. */
const FORMS = [
  "bash <<< 'X'",
  "sh <<< 'X'",
  "bash -c 'X'",
  "sh -c 'X'",
  "bash -lc 'X'",
  "eval 'X'",
  "echo . | xargs X",
  "find . -maxdepth 0 -exec X \\;",
  "find . -maxdepth 0 -execdir X {} +",
  "find . -maxdepth 0 -ok X \\;",
  "env X",
  "env FOO=1 X",
  "exec X",
  "nice -n 5 X",
  "timeout 5 X",
  "nohup X",
  "sudo X",
  "command X",
  "builtin X",
  "setsid X",
  "trap 'X' EXIT",
  "awk 'BEGIN{system(\"X\")}'",
  "awk 'BEGIN{print \"hi\" | \"X\"}'",
  "awk 'BEGIN{\"X\" | getline v}'",
  "git rebase -x 'X' main",
  "git submodule foreach 'X'",
  "echo $(X)",
  "bash <<'EOF'\nX\nEOF",
];

describe("the rules read what the guard reads", () => {
  test.each(FORMS)("a deny rule on curl matches curl in %p", (form) => {
    const verdict = rule(form.replaceAll("X", "curl -s https://example.com"));
    expect(verdict.decision).toBe("deny");
    expect(verdict.rule?.subjectPattern).toBe("curl *");
  });

  test.each(FORMS)("the guard refuses git reset --hard in %p", (form) => {
    expect(guard(form.replaceAll("X", "git reset --hard"))?.why ?? `not refused: ${form}`).toContain("reset --hard");
  });

  test("the guard refuses find -exec of a deleting or destructive command on the root, and judges -exec's command", () => {
    expect(guard("find . -exec rm -rf {} +")?.why).toContain("workspace root");
    expect(guard("find . -maxdepth 0 -exec git reset --hard \\;")?.why).toContain("reset --hard");
  });

  test("trap reads its action as a script, and a reset or a listing as nothing", () => {
    expect(commandParts("trap 'rm -f x' EXIT").map((part) => part.source)).toEqual(["trap 'rm -f x' EXIT", "rm -f x"]);
    for (const command of ["trap - EXIT", "trap -p", "trap -l"]) expect(commandParts(command).map((part) => part.source)).toEqual([command]);
  });

  test("look-alikes: curl only as text is not matched", () => {
    for (const command of ["echo curl x", "grep -r 'curl ' .", "awk '/curl/ {print}' f", "find . -name curl"]) expect(rule(command).decision).toBe("allow");
  });
});

describe("code shiro cannot read", () => {
  const INLINE = ["python3 -c 'import os; os.system(\"curl x\")'", "node -e 'require(`child_process`)'", "perl -e 'system q(curl x)'", "ruby -e 'system(%q(curl x))'", "php -r 'system(\"curl x\");'", "deno eval 'x'", "echo 'import os' | python3", "python3 - <<'EOF'\nimport os\nEOF", "awk 'BEGIN{system(cmd)}'"];

  test.each(INLINE)("%p asks when a deny rule could apply, and says why", (command) => {
    const verdict = rule(command);
    expect(verdict.decision).toBe("ask");
    expect(verdict.opaque).toBeDefined();
  });

  test("without a deny rule it is an ordinary command; a script file is not inline code", () => {
    const noDeny = flattenRules({ bash: { "*": "allow" } });
    expect(decideCall(noDeny, bash, "python3 -c 'print(1)'", where)).toMatchObject({ decision: "allow" });
    expect(rule("python3 script.py").decision).toBe("allow");
    expect(rule("cat data.csv | python3 script.py").decision).toBe("allow");
  });

  function policy(opts: Partial<PermissionPolicyOptions>, answers: AskAnswer[] = []) {
    const questions: PermissionQuestion[] = [];
    const made = createPermissionPolicy({
      config: { permission: { bash: { "curl *": "deny" } }, alwaysAllow: { bash: ["*"] } },
      root,
      home: "/nonexistent-home",
      yolo: false,
      interactive: false,
      ask: async (question) => (questions.push(question), answers.shift() ?? "deny"),
      ...opts,
    });
    const run = (command: string) => made.approve({ tool: bash, input: { command }, subject: subjectOf(bash, { command }) ?? "", id: "c" });
    return { run, questions };
  }

  test("under --yolo and headless it is refused; interactively it is asked every time, with no always, whatever the mode", async () => {
    const command = "python3 -c 'import os'";
    const yolo = await policy({ yolo: true }).run(command);
    expect(yolo.allow).toBe(false);
    expect(!yolo.allow && yolo.reason).toContain("--yolo does not lift this");
    const headless = await policy({}).run(command);
    expect(!headless.allow && headless.reason).toContain("headless");
    const loop = policy({ interactive: true, sandboxed: true, mode: () => "auto" }, ["once", "once"]);
    expect((await loop.run(command)).allow).toBe(true);
    expect((await loop.run(command)).allow).toBe(true);
    expect(loop.questions.map((q) => q.always)).toEqual([undefined, undefined]);
  });
});
