// `shiro config` through the binary: each setting's value and where it came from (flag, env,
// config file, preset, default), the key never printed; `config set` / `unset` writing the user's
// config file atomically, and refusing an unknown key, a bad value or a broken file without
// touching it.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigFile } from "../../lib/config/schema.ts";
import { runShiro, tempDir } from "../support/cli.ts";

const SECRET = "sk-test-never-shown-0123456789";

/** A home with a config file written as `config` (JSON), and the file's path. */
function homeWith(config?: string): { home: string; file: string } {
  const home = tempDir("shiro-home-");
  const dir = join(home, ".shiro-neko");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "config.json");
  if (config !== undefined) writeFileSync(file, config);
  return { home, file };
}

/**
 * One setting in `shiro config`'s output as "key value source", its wrapped rows joined: the value
 * column's pieces rejoined (without a space after a comma or bracket it broke at), then the source's.
 */
function row(stdout: string, key: string): string {
  const lines = stdout.split("\n");
  const at = lines.findIndex((l) => l.startsWith(`  ${key} `));
  if (at < 0) throw new Error(`no line for ${key} in:\n${stdout}`);
  const first = lines[at]!;
  const valueAt = first.length - first.slice(2 + key.length).trimStart().length;
  const sourceAt = first.indexOf("  (", valueAt) + 2;
  const rows = [first];
  for (let i = at + 1; i < lines.length && /^ {4,}\S/.test(lines[i]!); i++) rows.push(lines[i]!);
  const join = (pieces: string[]) => pieces.filter((p) => p !== "").reduce((all, p) => (all === "" || /[,[{]$/.test(all) ? all + p : `${all} ${p}`), "");
  const value = join(rows.map((r) => r.slice(valueAt, sourceAt).trim()));
  const source = join(rows.map((r) => r.slice(sourceAt).trim()));
  return `${key} ${value} ${source}`.replace(/\s+/g, " ");
}

describe("shiro config shows each setting and where it came from", () => {
  test("flag, env, config file, preset and default each named; the key only as set, with its variable", async () => {
    const { home } = homeWith(JSON.stringify({ maxSteps: 12, thinking: "high", apiKey: "sk-file-key-should-not-show" }));
    const run = await runShiro(["config", "--model", "flag-model", "--provider", "groq"], {
      home,
      env: { GROQ_API_KEY: SECRET, SHIRO_COMPACT_AT: "50000", SHIRO_CONTEXT_WINDOW: undefined, SHIRO_CLIENT: undefined },
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(row(run.stdout, "model")).toBe("model flag-model (from flag --model)");
    expect(row(run.stdout, "provider")).toBe("provider groq (from flag --provider)");
    expect(row(run.stdout, "baseURL")).toBe("baseURL https://api.groq.com/openai/v1 (from preset groq)");
    expect(row(run.stdout, "apiKey")).toBe("apiKey set (from env GROQ_API_KEY)");
    expect(row(run.stdout, "compactAtTokens")).toBe("compactAtTokens 50000 (from env SHIRO_COMPACT_AT)");
    expect(row(run.stdout, "maxSteps")).toBe("maxSteps 12 (from config file)");
    expect(row(run.stdout, "thinking")).toBe("thinking high (from config file)");
    expect(row(run.stdout, "maxRetries")).toBe("maxRetries 3 (default)");
    expect(row(run.stdout, "contextWindow")).toStartWith("contextWindow not set (asked from the server");
    expect(run.stdout).not.toContain(SECRET);
    expect(run.stdout).not.toContain("sk-file-key");
  });

  test("without any key for a remote server it still shows everything and says the key is needed", async () => {
    const run = await runShiro(["config"], { env: { SHIRO_CLIENT: undefined } });
    expect(run.code).toBe(0);
    expect(row(run.stdout, "apiKey")).toBe("apiKey not set (needed for https://api.openai.com/v1: set SHIRO_API_KEY or OPENAI_API_KEY)");
    expect(row(run.stdout, "model")).toBe("model gpt-5-mini (from preset openai)");
    expect(row(run.stdout, "baseURL")).toBe("baseURL https://api.openai.com/v1 (from preset openai)");
  });

  test("a provider with no default model and none chosen: the model is not set, with how to choose one, never OpenAI's default", async () => {
    const { home } = homeWith(JSON.stringify({ provider: "ollama" }));
    const run = await runShiro(["config"], { home });
    expect(run.code).toBe(0);
    expect(row(run.stdout, "model")).toBe("model not set (ollama has no default: --model <id> or shiro config set model <id>)");
    expect(run.stdout).not.toContain("gpt-5-mini");
    expect(await runShiro(["config", "get", "model"], { home })).toEqual({ code: 0, stdout: "not set\n", stderr: "" });
    expect((await runShiro(["config", "get", "model", "-m", "qwen3"], { home })).stdout).toBe("qwen3\n");
  });

  test("every field of the config file schema is in the output, by its name", async () => {
    // The maps shown in their own sections appear only when set, so the file sets them all.
    const { home } = homeWith(
      JSON.stringify({
        models: { "gpt-5-mini": { contextWindow: 400000 } },
        presets: { groq: { models: { "llama-3": { contextWindow: 8000 } } } },
        guard: { allow: ["~/.npmrc"] },
        readOnlyCommands: { add: ["jq"] },
        permission: { bash: { "git status*": "allow" } },
        projects: { "/work/app": { permission: { bash: { "make*": "allow" } } } },
        alwaysAllow: { bash: ["npm test *"] },
      }),
    );
    const run = await runShiro(["config"], { home });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    // How the sections name their field; every other field has a line of its own.
    const heading: Record<string, string> = {
      permission: "Permission rules (config file;",
      projects: "Permission rules for the project /work/app",
      alwaysAllow: 'Saved "always" answers (alwaysAllow',
    };
    // $schema is an editor's pointer to a JSON schema, not a setting.
    for (const key of Object.keys(ConfigFile.entries).filter((k) => k !== "$schema")) {
      const lines = run.stdout.split("\n");
      const shown = heading[key] ? lines.some((l) => l.startsWith(heading[key]!)) : lines.some((l) => l.startsWith(`  ${key} `) || l.startsWith(`${key} (config file): `));
      expect({ key, shown }).toEqual({ key, shown: true });
    }
  });

  test("subagent, web_fetch and MCP settings from the file; MCP servers by name only, never their headers or env", async () => {
    const { home } = homeWith(
      JSON.stringify({
        subagentModel: "gpt-5-nano",
        subagentMaxSteps: 7,
        maxParallelSubagents: 2,
        webFetch: { allowHosts: ["localhost:8123"] },
        trustProjectMcp: true,
        mcpServers: {
          docs: { url: "https://example.com/mcp", headers: { Authorization: "Bearer mcp-secret-header" } },
          local: { command: "mcp-local", env: { TOKEN: "mcp-secret-env" } },
        },
      }),
    );
    const run = await runShiro(["config"], { home });
    expect(run.stderr).toBe("");
    expect(row(run.stdout, "subagentModel")).toBe("subagentModel gpt-5-nano (from config file)");
    expect(row(run.stdout, "subagentMaxSteps")).toBe("subagentMaxSteps 7 (from config file)");
    expect(row(run.stdout, "maxParallelSubagents")).toBe("maxParallelSubagents 2 (from config file)");
    expect(row(run.stdout, "webFetch")).toStartWith('webFetch {"allowHosts":["localhost:8123"],');
    expect(row(run.stdout, "trustProjectMcp")).toBe("trustProjectMcp true (from config file)");
    expect(row(run.stdout, "mcpServers")).toBe("mcpServers docs, local (from config file)");
    expect(run.stdout).not.toContain("mcp-secret");
    const defaults = await runShiro(["config"]);
    expect(row(defaults.stdout, "subagentModel")).toBe("subagentModel not set (subagents use the session's model)");
    expect(row(defaults.stdout, "mcpServers")).toBe("mcpServers none (default)");
  });

  test("the permission rules of the config file are listed", async () => {
    const { home } = homeWith(JSON.stringify({ permission: { bash: { "git status*": "allow", "git push*": "deny" }, write_file: "ask" } }));
    const run = await runShiro(["config"], { home, baseURL: "http://127.0.0.1:9/v1" });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('  bash: {"git status*":"allow","git push*":"deny"}\n');
    expect(run.stdout).toContain('  write_file: "ask"\n');
    expect(row(run.stdout, "baseURL")).toBe("baseURL http://127.0.0.1:9/v1 (from env SHIRO_BASE_URL)");
    expect(row(run.stdout, "apiKey")).toBe("apiKey not set (not needed for a local server)");
  });

  test("every row fits 100 columns into a pipe: a long value wraps inside its column, the source column stays aligned", async () => {
    const allowHosts = ["localhost:8123", "docs.internal.example:9000", "[::1]:8080"];
    const { home } = homeWith(JSON.stringify({ webFetch: { allowHosts }, sandboxWritable: ["~/.cache/some-tool", "../sibling-project/build-output"] }));
    const run = await runShiro(["config"], { home });
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines.filter((l) => l.length > 100)).toEqual([]);
    // Every source starts in one column, on its setting's first row.
    const starts = new Set(lines.filter((l) => /^ {2}\S/.test(l) && / \($/.test(l.slice(0, l.indexOf(" (") + 2))).map((l) => l.indexOf(" (") + 1));
    expect(starts.size).toBe(1);
    const at = lines.findIndex((l) => l.startsWith("  webFetch "));
    expect(lines[at]).toMatch(/^ {2}webFetch +\{"allowHosts":\[[^ ]* +\(from config file\)$/);
    // The continuation rows start in the value column, and no host is cut in two.
    const valueAt = lines[at]!.indexOf("{");
    expect(lines[at + 1]!.search(/\S/)).toBe(valueAt);
    for (const host of allowHosts) expect(lines.some((l) => l.includes(`"${host}"`))).toBe(true);
    expect(row(run.stdout, "webFetch")).toBe(`webFetch ${JSON.stringify({ allowHosts, timeoutMs: 30000, maxBytes: 5242880, readOnlyAgents: false })} (from config file)`);
    expect(row(run.stdout, "sandboxWritable")).toBe('sandboxWritable ["~/.cache/some-tool","../sibling-project/build-output"] (from config file)');
    expect(row(run.stdout, "apiKey")).toBe("apiKey not set (needed for https://api.openai.com/v1: set SHIRO_API_KEY or OPENAI_API_KEY)");
  });

  test('the saved "always" answers are listed, top level and per project', async () => {
    const config = { alwaysAllow: { bash: ["git commit *"], write_file: ["*"] }, projects: { "/w/app": { alwaysAllow: { bash: ["npm test *"] } } } };
    const { home } = homeWith(JSON.stringify(config));
    const run = await runShiro(["config"], { home, baseURL: "http://127.0.0.1:9/v1" });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Saved "always" answers (alwaysAllow; after every deny and ask rule):\n  bash: git commit *\n  write_file: every call\n');
    expect(run.stdout).toContain('Saved "always" answers for the project /w/app:\n  bash: npm test *\n');
  });

  test("a broken config file is reported in one line, exit 2", async () => {
    const { home } = homeWith('{"model": "x",');
    const run = await runShiro(["config"], { home });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^shiro: config file .*config\.json is not valid JSON at line 1, column 15: .*\(the line: \{"model": "x",\)\. Fix it or move it aside\.\n$/);
  });
});

describe("a config file with a misspelled field", () => {
  test("names the field's path and the field it looks like, in one line, exit 2, the file untouched", async () => {
    const text = JSON.stringify({ projects: { "/x": { permision: {} } } });
    const { home, file } = homeWith(text);
    const run = await runShiro(["config"], { home });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`shiro: config file ${file}: unknown field projects."/x".permision. Did you mean permission? See shiro help configuration.\n`);
    expect(readFileSync(file, "utf8")).toBe(text);
  });
});

describe("a config file holding a list", () => {
  test("is the one-line config error, exit 2, not an empty config; the file untouched", async () => {
    const { home, file } = homeWith("[]");
    const run = await runShiro(["config", "get", "model"], { home });
    expect(run).toEqual({ code: 2, stdout: "", stderr: `shiro: config file ${file} must hold a JSON object such as {"model": "gpt-5-mini"}, not a list. Fix it or move it aside.\n` });
    expect(readFileSync(file, "utf8")).toBe("[]");
  });
});

describe("shiro config get / list, the words other tools use", () => {
  test("get prints the value in effect alone on a line: from the file, a flag, a default; a section as the file's JSON", async () => {
    const { home } = homeWith(JSON.stringify({ maxSteps: 12, permission: { bash: { "git status*": "allow" } } }));
    expect(await runShiro(["config", "get", "maxSteps"], { home })).toEqual({ code: 0, stdout: "12\n", stderr: "" });
    expect((await runShiro(["config", "get", "model", "-m", "gpt-x"], { home })).stdout).toBe("gpt-x\n");
    expect((await runShiro(["config", "get", "maxRetries"], { home })).stdout).toBe("3\n");
    expect((await runShiro(["config", "get", "permission"], { home })).stdout).toBe('{"bash":{"git status*":"allow"}}\n');
  });

  test("flags before the word apply as after it, as with npm config: get and show use them", async () => {
    const { home } = homeWith(JSON.stringify({ model: "from-file" }));
    expect(await runShiro(["config", "--model", "q", "get", "model"], { home })).toEqual({ code: 0, stdout: "q\n", stderr: "" });
    expect(await runShiro(["config", "-m", "q", "get", "model"], { home })).toEqual({ code: 0, stdout: "q\n", stderr: "" });
    const show = await runShiro(["config", "--max-steps", "7", "show"], { home });
    expect(show.code).toBe(0);
    expect(row(show.stdout, "maxSteps")).toBe("maxSteps 7 (from flag --max-steps)");
  });

  test("set, unset and path refuse a setting flag, before or after the words, with the command that saves it; the file unchanged", async () => {
    const text = JSON.stringify({ maxSteps: 3 });
    const { home, file } = homeWith(text);
    const before = await runShiro(["config", "--model", "q", "set", "maxSteps", "5"], { home });
    expect(before).toEqual({ code: 2, stdout: "", stderr: "shiro: shiro config set changes only the config file, so --model does not apply to it. To save that setting: shiro config set model <value>.\n" });
    const after = await runShiro(["config", "set", "maxSteps", "5", "--no-sandbox"], { home });
    expect(after.stderr).toBe("shiro: shiro config set changes only the config file, so --no-sandbox does not apply to it. To save that setting: shiro config set sandbox <value>.\n");
    expect((await runShiro(["config", "--max-steps", "4", "unset", "maxSteps"], { home })).stderr).toBe(
      "shiro: shiro config unset changes only the config file, so --max-steps does not apply to it. To remove that setting from the file: shiro config unset maxSteps.\n",
    );
    expect(readFileSync(file, "utf8")).toBe(text);
    expect(await runShiro(["config", "--debug", "set", "maxSteps", "5"], { home })).toMatchObject({ code: 0, stderr: "" });
  });

  test("get of an unknown key: one line with the keys it looks like, exit 2", async () => {
    const run = await runShiro(["config", "get", "modle"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('shiro: unknown config key "modle". Did you mean model, models?\n');
  });

  test("list is show", async () => {
    const { home } = homeWith(JSON.stringify({ maxSteps: 12 }));
    const [list, show] = await Promise.all([runShiro(["config", "list"], { home }), runShiro(["config"], { home })]);
    expect(list.code).toBe(0);
    expect(row(list.stdout, "maxSteps")).toBe("maxSteps 12 (from config file)");
    expect(list.stdout).toBe(show.stdout);
  });
});

describe("shiro config set / unset write the user config file", () => {
  test("set round trip: a number, a boolean, a choice, a string and JSON, each stored as its type and then shown from the file", async () => {
    const { home, file } = homeWith(JSON.stringify({ model: "old" }, null, 2));
    for (const [key, value] of [["maxSteps", "9"], ["sandboxNetwork", "false"], ["api", "chat"], ["model", "gpt-4.1"], ["sandboxReadable", '["~/.ssh"]']]) {
      const run = await runShiro(["config", "set", key!, value!], { home });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`saved ${key} = ${value === "chat" || value === "gpt-4.1" ? JSON.stringify(value) : value} in ${file}\n`);
    }
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ model: "gpt-4.1", maxSteps: 9, sandboxNetwork: false, api: "chat", sandboxReadable: ["~/.ssh"] });
    const shown = await runShiro(["config"], { home, baseURL: "http://127.0.0.1:9/v1" });
    expect(row(shown.stdout, "maxSteps")).toBe("maxSteps 9 (from config file)");
    expect(row(shown.stdout, "sandboxNetwork")).toBe("sandboxNetwork false (from config file)");
    expect(row(shown.stdout, "model")).toBe("model gpt-4.1 (from config file)");

    const unset = await runShiro(["config", "unset", "maxSteps"], { home });
    expect(unset.code).toBe(0);
    expect(unset.stdout).toBe(`removed maxSteps from ${file}\n`);
    expect(JSON.parse(readFileSync(file, "utf8")).maxSteps).toBeUndefined();
    expect((await runShiro(["config", "path"], { home })).stdout).toBe(file + "\n");
  });

  test("set on an object field merges into what the file has: other projects, tools and models are kept", async () => {
    const { home, file } = homeWith(
      JSON.stringify({
        projects: { "/work/app": { permission: { bash: { "make*": "allow" } } } },
        permission: { bash: { "git status*": "allow" }, write_file: "ask" },
        models: { "gpt-4.1": { contextWindow: 1000000 } },
      }),
    );
    const projects = await runShiro(["config", "set", "projects", '{"/work/lib": {"permission": {"bash": "ask"}}}'], { home });
    expect(projects.stderr).toBe("");
    expect(projects.code).toBe(0);
    expect(projects.stdout).toBe(`saved projects = {"/work/lib":{"permission":{"bash":"ask"}}} in ${file} (merged: /work/app kept; shiro config unset projects.<name> removes one)\n`);
    const permission = await runShiro(["config", "set", "permission", '{"bash": {"git push*": "deny"}}'], { home });
    expect(permission.code).toBe(0);
    // The line names the rule kept inside bash too, so the merge does not read as bash's rules replaced.
    expect(permission.stdout).toBe(`saved permission = {"bash":{"git push*":"deny"}} in ${file} (merged: bash.git status*, write_file kept)\n`);
    const models = await runShiro(["config", "set", "models.llama-3.1", '{"contextWindow": 8000}'], { home });
    expect(models.stdout).toBe(`saved models entry "llama-3.1" = {"contextWindow":8000} in ${file}\n`);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      projects: { "/work/app": { permission: { bash: { "make*": "allow" } } }, "/work/lib": { permission: { bash: "ask" } } },
      // Nested objects merge too; the rules already there keep their place, new ones come last.
      permission: { bash: { "git status*": "allow", "git push*": "deny" }, write_file: "ask" },
      models: { "gpt-4.1": { contextWindow: 1000000 }, "llama-3.1": { contextWindow: 8000 } },
    });
    expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).permission.bash)).toEqual(["git status*", "git push*"]);
  });

  test("unset field.entry removes one entry and keeps the rest; a plain field has no entries", async () => {
    const { home, file } = homeWith(JSON.stringify({ models: { "gpt-4.1": { contextWindow: 1000000 }, "llama-3.1": { contextWindow: 8000 } }, maxSteps: 9 }));
    const run = await runShiro(["config", "unset", "models.gpt-4.1"], { home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`removed models.gpt-4.1 from ${file}\n`);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ models: { "llama-3.1": { contextWindow: 8000 } }, maxSteps: 9 });
    const plain = await runShiro(["config", "unset", "maxSteps.x"], { home });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toBe('shiro: config "maxSteps" has no entries; use shiro config set maxSteps <value>. Nothing was saved.\n');
  });

  test("the key is saved but never echoed", async () => {
    const { home, file } = homeWith();
    const run = await runShiro(["config", "set", "apiKey", SECRET], { home });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(SECRET);
    expect(JSON.parse(readFileSync(file, "utf8")).apiKey).toBe(SECRET);
    const shown = await runShiro(["config"], { home, env: { SHIRO_CLIENT: undefined } });
    expect(row(shown.stdout, "apiKey")).toBe("apiKey set (from config file)");
    expect(shown.stdout).not.toContain(SECRET);
  });

  test("an unknown key: one line with the keys it looks like, exit 2, the file unchanged", async () => {
    const before = JSON.stringify({ model: "kept" });
    const { home, file } = homeWith(before);
    const run = await runShiro(["config", "set", "modle", "x"], { home });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe('shiro: unknown config key "modle". Did you mean model, models? Nothing was saved.\n');
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  test("a value the field refuses: the schema's message, exit 2, the file unchanged", async () => {
    const before = JSON.stringify({ model: "kept" });
    const { home, file } = homeWith(before);
    for (const [key, value, message] of [
      ["maxSteps", "lots", 'field "maxSteps" must be a number'],
      ["maxSteps", "0", 'field "maxSteps" must be at least 1'],
      ["sandbox", "maybe", 'field "sandbox" must be "on" or "off"'],
      ["store", "yes", 'field "store" must be true or false'],
    ]) {
      const run = await runShiro(["config", "set", key!, value!], { home });
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`shiro: not saved: ${message}. ${file} is unchanged.\n`);
    }
    const json = await runShiro(["config", "set", "permission", "{bash: ask"], { home });
    expect(json.code).toBe(2);
    expect(json.stderr).toStartWith('shiro: config "permission" takes JSON here');
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  test("a corrupt config file is reported and left exactly as it was", async () => {
    const broken = '{ "model": "half';
    const { home, file } = homeWith(broken);
    const run = await runShiro(["config", "set", "model", "x"], { home });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is not valid JSON .*Fix it or move it aside\.\n$/);
    expect(readFileSync(file, "utf8")).toBe(broken);
  });

  test("set with no config file yet creates it under SHIRO_HOME", async () => {
    const { home, file } = homeWith();
    const run = await runShiro(["config", "set", "agent", "deep"], { home });
    expect(run.code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe('{\n  "agent": "deep"\n}\n');
  });
});
