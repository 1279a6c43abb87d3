// shiro doctor's lines about hooks: each hook's program found or not, a project file not trusted yet.
import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hookChecks } from "../../lib/app/doctor.ts";
import { planHooks } from "../../lib/hooks/plan.ts";
import { makeTempDir } from "../support/temp-dirs.ts";

test("doctor says which hook programs exist and can run, and names an untrusted project hooks file", () => {
  const root = makeTempDir("shiro-hook-doctor-");
  const home = makeTempDir("shiro-hook-home-");
  writeFileSync(join(root, "check.sh"), "#!/bin/sh\nexit 0\n");
  chmodSync(join(root, "check.sh"), 0o755);
  writeFileSync(join(root, "not-executable.sh"), "#!/bin/sh\n");
  mkdirSync(join(root, ".shiro"));
  writeFileSync(join(root, ".shiro", "settings.json"), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "npm test" }] }] } }));
  const config = {
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./check.sh --strict" }, { type: "command", command: "$CLAUDE_PROJECT_DIR/not-executable.sh" }] }],
      PostToolUse: [{ hooks: [{ type: "command", command: "no-such-formatter --write" }, { type: "command", command: "echo done" }] }],
    },
  };
  const checks = hookChecks(planHooks({ config, root, home }), root, "/usr/bin:/bin");
  expect(checks.map((c) => [c.mark, c.text])).toEqual([
    ["ok", "hook PreToolUse [Bash] (user config): ./check.sh --strict"],
    ["warn", `hook PreToolUse [Bash] (user config): $CLAUDE_PROJECT_DIR/not-executable.sh: ${join(root, "not-executable.sh")} is not executable (chmod +x ${join(root, "not-executable.sh")})`],
    ["warn", "hook PostToolUse (user config): no-such-formatter --write: no-such-formatter is not on PATH"],
    ["ok", "hook PostToolUse (user config): echo done"],
    ["info", `hooks in ${join(root, ".shiro", "settings.json")} are not trusted yet, so they do not run`],
  ]);
});
