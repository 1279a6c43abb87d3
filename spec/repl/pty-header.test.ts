// The loop's start header in narrow and wide terminals: a line too long breaks between its parts
// (or, for prose, at its spaces), a path too long for a row is shortened in its middle, and no row
// ever ends inside a word. Long model id, long working directory, two instruction files, hooks and
// MCP servers configured.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { usePty, type Pty } from "./pty.ts";

const { serve, start } = usePty();
const MODEL = "accounts/fireworks/models/qwen3-coder-480b-a35b-instruct";
const PROJECT = join("projects", "customer-portal-monorepo", "packages", "billing-service-integration");

/** A home with hooks and two MCP servers configured, and a repository whose nested working directory has CLAUDE.md under a root AGENTS.md. */
function setUp(): { home: string; cwd: string } {
  const home = tempDir("shiro-home-");
  const root = join(home, "work");
  const cwd = join(root, PROJECT);
  mkdirSync(cwd, { recursive: true });
  mkdirSync(join(root, ".git"));
  writeFileSync(join(root, "AGENTS.md"), "Run bun test.\n");
  writeFileSync(join(cwd, "CLAUDE.md"), "Keep it small.\n");
  mkdirSync(join(home, ".shiro-neko"), { recursive: true });
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] },
    mcpServers: { "issue-tracker": { command: join(home, "no-such-mcp-server") }, github: { command: join(home, "no-such-gh-mcp") } },
  }));
  return { home, cwd };
}

/** The header's rows: from the top to the row that ends with the key hints. */
function headerRows(pty: Pty): string[] {
  const rows = pty.screen().split("\n");
  return rows.slice(0, rows.findIndex((row) => row.endsWith("ctrl-d exits")) + 1);
}

async function headerAt(cols: number, where: { home: string; cwd: string }): Promise<string[]> {
  const s = await serve();
  const pty = await start({ baseURL: s.url, cwd: where.cwd, home: where.home, cols, args: ["-m", MODEL] });
  await pty.waitForPrompt(1);
  const rows = headerRows(pty);
  pty.kill();
  return rows;
}

test("the header never wraps inside a word at 120, 80 or 50 columns: rows break between parts, paths are shortened in the middle", async () => {
  const where = setUp();
  // Wide enough for every part whole: the words a narrower header may use, or shorten with "…".
  const wide = await headerAt(240, where);
  expect(wide).toContain(`~/work/${PROJECT} · new session`);
  expect(wide).toContain(`instructions from AGENTS.md · ${PROJECT}/CLAUDE.md`);
  const words = new Set(wide.flatMap((row) => row.split(" ")));

  const at120 = await headerAt(120, where);
  // Every line but the first fits its own row whole; the first breaks between its parts, the directory and session on their own.
  expect(at120).toEqual([
    `shiro 0.2.0 · ${MODEL} · default agent, thinking medium`,
    "window 1,000,000 tokens (SHIRO_CONTEXT_WINDOW)",
    `~/work/${PROJECT} · new session`,
    `instructions from AGENTS.md · ${PROJECT}/CLAUDE.md`,
    "edits and commands ask (read-only commands run): y once · a always · n deny",
    'sandbox off (--no-sandbox, SHIRO_SANDBOX=off or config "sandbox": "off"): commands run directly on this machine',
    "/help lists commands · esc interrupts · ctrl-d exits",
  ]);

  const at80 = await headerAt(80, where);
  expect(at80).toContain("~/…/customer-portal-monorepo/packages/billing-service-integration · new session");
  expect(at80).toContain("instructions from AGENTS.md · projects/…/billing-service-integration/CLAUDE.md");
  expect(at80).toContain("edits and commands ask (read-only commands run): y once · a always · n deny");

  const at50 = await headerAt(50, where);
  expect(at50).toContain("accounts/…/models/qwen3-coder-480b-a35b-instruct");
  expect(at50).toContain("~/…/billing-service-integration · new session");
  expect(at50).toContain("instructions from AGENTS.md · …/CLAUDE.md");
  expect(at50).toContain("/help lists commands · esc interrupts");
  expect(at50).toContain("ctrl-d exits");

  for (const [cols, rows] of [[120, at120], [80, at80], [50, at50]] as const) {
    for (const row of rows) {
      expect(Bun.stringWidth(row)).toBeLessThan(cols); // drawn by shiro, never wrapped by the terminal
      for (const word of row.split(" ")) if (!word.includes("…")) expect({ cols, row, word, whole: words.has(word) }).toEqual({ cols, row, word, whole: true });
      expect(row).not.toMatch(/ ·$|^· /); // a break between parts leaves no separator behind
    }
  }
}, 40_000);
