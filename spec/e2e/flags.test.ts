import { describe, expect, test } from "bun:test";
import { MAIN_ARGS, type FlagTable } from "../../cmd/args.ts";
import { CONFIG_FLAGS } from "../../cmd/config.ts";
import { MEMORY_FLAGS } from "../../cmd/memory.ts";
import { DOCTOR_FLAGS } from "../../cmd/doctor.ts";
import { SESSIONS_FLAGS } from "../../cmd/sessions.ts";
import { jsonLines, runShiro } from "../support/cli.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { lastUserTextIn, WIRES } from "../support/requests.ts";

/** Every command line, sub-command by sub-command, that takes flags. */
const COMMANDS: { command: string; argv: string[] }[] = [
  { command: "shiro", argv: ["-p", "hi"] },
  { command: "shiro sessions", argv: ["sessions"] },
  { command: "shiro sessions", argv: ["sessions", "list"] },
  { command: "shiro sessions", argv: ["sessions", "show", "0193abcd"] },
  { command: "shiro sessions", argv: ["sessions", "rm", "0193abcd"] },
  { command: "shiro sessions", argv: ["sessions", "export", "0193abcd"] },
  { command: "shiro sessions", argv: ["sessions", "compact", "0193abcd"] },
  { command: "shiro sessions", argv: ["sessions", "repair", "0193abcd"] },
  { command: "shiro memory", argv: ["memory"] },
  { command: "shiro memory", argv: ["memory", "list"] },
  { command: "shiro memory", argv: ["memory", "path"] },
  { command: "shiro memory", argv: ["memory", "forget", "some note"] },
  { command: "shiro memory", argv: ["memory", "compact"] },
  { command: "shiro doctor", argv: ["doctor"] },
  { command: "shiro config", argv: ["config"] },
  { command: "shiro config", argv: ["config", "set", "model", "x"] },
];

describe("every command rejects an unknown flag: exit 2, one line that says what to run", () => {
  for (const { command, argv } of COMMANDS) {
    for (const flag of ["--jsn", "-z"]) {
      test(`${argv.join(" ")} ${flag}`, async () => {
        const run = await runShiro([...argv, flag], { baseURL: "http://127.0.0.1:9/v1" });
        expect(run.code).toBe(2);
        expect(run.stdout).toBe("");
        const lines = run.stderr.trim().split("\n");
        expect(lines).toHaveLength(1);
        const where = command === "shiro" ? "" : ` for "${command}"`;
        // A near flag is named (`--jsn` → `--json`, where the command has one).
        expect(lines[0]).toMatch(new RegExp(`^shiro: unknown option ${flag}${where.replace(/"/g, '"')}\\.( Did you mean --[a-z-]+\\?)? Run ${command} --help for the list\\.$`));
      });
    }
  }

  test("a mistyped flag is answered with the one it most likely meant", async () => {
    const run = await runShiro(["-p", "hi", "--modle", "x"], { baseURL: "http://127.0.0.1:9/v1" });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("shiro: unknown option --modle. Did you mean --model? Run shiro --help for the list.\n");
    const far = await runShiro(["-p", "hi", "--frobnicate"], { baseURL: "http://127.0.0.1:9/v1" });
    expect(far.stderr).toBe("shiro: unknown option --frobnicate. Run shiro --help for the list.\n");
  });

  test("a flag value that breaks its setting's rule names the flag; the same rule names the variable", async () => {
    const steps = await runShiro(["-p", "hi", "--max-steps", "0"], { baseURL: "http://127.0.0.1:9/v1" });
    expect(steps.code).toBe(2);
    expect(steps.stderr).toBe('shiro: --max-steps must be a whole number of at least 1, not "0".\n');
    const spend = await runShiro(["-p", "hi", "--max-spend", "lots"], { baseURL: "http://127.0.0.1:9/v1" });
    expect(spend.code).toBe(2);
    expect(spend.stderr).toBe('shiro: --max-spend must be an amount in USD such as 2.50, not "lots".\n');
    const env = await runShiro(["-p", "hi"], { baseURL: "http://127.0.0.1:9/v1", env: { SHIRO_MAX_STEPS: "1.5" } });
    expect(env.code).toBe(2);
    expect(env.stderr).toBe('shiro: SHIRO_MAX_STEPS must be a whole number of at least 1, not "1.5".\n');
  });
});

/** What --help must show for each flag of a table: its spelling, short form, value and description. */
function expectListed(help: string, table: FlagTable): void {
  const lines = help.split("\n");
  const start = lines.indexOf("Options:") + 1;
  expect(start).toBeGreaterThan(0);
  const options = lines.slice(start, lines.indexOf("", start));
  expect(options).toHaveLength(Object.keys(table).length);
  for (const [name, def] of Object.entries(table)) {
    const negated = def.type === "boolean" && def.default === true;
    const line = options.find((l) => new RegExp(`--${negated ? "no-" : ""}${name}\\b(?!-)`).test(l));
    expect({ name, line }).toEqual({ name, line: expect.any(String) });
    if (def.alias && !negated) expect(line).toContain(`-${def.alias}, --${name}`);
    if (def.type === "string") expect(line).toContain(`--${name} <${def.valueHint}>`);
    expect(line).toContain(negated ? def.negativeDescription! : def.description);
  }
}

describe("--help is rendered from the flag tables", () => {
  test("shiro --help lists every flag of MAIN_ARGS, with the usage, environment and exit codes around it", async () => {
    const run = await runShiro(["--help"]);
    expect(run.code).toBe(0);
    expectListed(run.stdout, MAIN_ARGS);
    for (const section of ["Usage:", "Options:", "Environment:", "Exit codes:"]) expect(run.stdout).toContain(section);
  });

  for (const [command, table] of [
    ["sessions", SESSIONS_FLAGS],
    ["memory", MEMORY_FLAGS],
    ["doctor", DOCTOR_FLAGS],
    ["config", CONFIG_FLAGS],
  ] as const) {
    test(`shiro ${command} --help lists every flag of its table and does nothing else`, async () => {
      const run = await runShiro([command, "--help"]);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("");
      expect(run.stdout).toStartWith(`usage: shiro ${command}`);
      expectListed(run.stdout, table);
    });
  }

  test("every sub-command answers --help with its own usage instead of running", async () => {
    const subs = [
      ["sessions", "list"],
      ["sessions", "show"],
      ["sessions", "rm"],
      ["sessions", "export"],
      ["sessions", "compact"],
      ["sessions", "repair"],
      ["memory", "list"],
      ["memory", "forget"],
      ["memory", "path"],
      ["memory", "compact"],
      ["config", "set"],
      ["config", "unset"],
      ["config", "path"],
    ] as const;
    for (const [command, sub] of subs) {
      const run = await runShiro([command, sub, "--help"]);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("");
      expect(run.stdout.split("\n")[0]).toStartWith(sub === "list" ? `usage: shiro ${command} [list]` : `usage: shiro ${command} ${sub}`);
    }
  }, 30_000);
});

describe("a sub-command named after flags runs as that sub-command, never as a prompt", () => {
  test("shiro --model m config: config runs with the flag; shiro --base-url … doctor checks that server", async () => {
    const config = await runShiro(["--model", "flag-model", "config"]);
    expect(config.stderr).toBe("");
    expect(config.code).toBe(0);
    expect(config.stdout).toMatch(/^ *model +flag-model +\(from flag --model\)$/m);
    const doctor = await runShiro(["--base-url", "http://127.0.0.1:1/v1", "doctor"], { baseURL: undefined });
    expect(doctor.stdout).toMatch(/^fail +server: could not connect to http:\/\/127\.0\.0\.1:1\/v1 /m);
    expect(doctor.code).toBe(1);
  });

  test("the sub-command's own words and flags after it still apply: shiro -m m sessions list --json", async () => {
    const run = await runShiro(["-m", "x", "sessions", "list", "--json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
  });

  test("a flag the sub-command does not take: exit 2, one line saying to put it first or use --", async () => {
    const run = await runShiro(["--yolo", "doctor"], { baseURL: "http://127.0.0.1:9/v1" });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe('shiro: shiro doctor does not take --yolo: put the sub-command first (shiro doctor --help lists its options), or put -- before "doctor" to send it as a prompt.\n');
  });

  test("after --, the word is a prompt again: it goes to the model", async () => {
    const run = await runShiro(["--base-url", "http://127.0.0.1:1/v1", "--", "doctor"], { baseURL: undefined });
    expect(run.code).toBe(1);
    expect(run.stdout).not.toMatch(/^fail +server:/m);
    expect(run.stderr).toContain("127.0.0.1:1");
  });
});

describe("-p with its prompt after other flags: the flags apply, none becomes the prompt", () => {
  const serve = useFakeServer();
  for (const { wire, flags } of WIRES) {
    test(`shiro -p --json "…" prints JSON and sends only the prompt (${wire})`, async () => {
      const s = await serve({ text: "hello" });
      const run = await runShiro(["-p", "--json", "say hello", ...flags], { baseURL: s.url });
      expect(run.code).toBe(0);
      expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: "result", status: "success", text: "hello" });
      expect(lastUserTextIn(s.requests[0]!.body)).toBe("say hello");
    });

    test(`shiro -p --max-steps 1 "…" stops at the cap it was given (${wire})`, async () => {
      const s = await serve({ toolCalls: [{ name: "list_dir", input: { path: "." } }] });
      const run = await runShiro(["-p", "--max-steps", "1", "look around", ...flags], { baseURL: s.url });
      // Headless, the way on is another run on the same session, not a word to shiro.
      expect(run.stderr).toContain('error: stopped after 1 step (the step cap). Raise it with --max-steps, or continue with shiro -c -p "go on".');
      expect(run.stderr).not.toContain("ask shiro");
      expect(run.code).toBe(3);
      expect(lastUserTextIn(s.requests[0]!.body)).toBe("look around");
    });
  }
});
