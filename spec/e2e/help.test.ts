// `shiro help [<topic>]`: the user docs travel inside the binary. Every docs/*.md is a topic (the
// build embeds whatever is there), `shiro help` lists them with each one's first heading, a topic
// prints as Markdown into a pipe and rendered in a terminal, and `help` followed by anything but
// one known topic is a prompt like any other words.
import { beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { REPO_ROOT } from "../support/shared-fixtures.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { usePty } from "../repl/pty.ts";

const DOCS = join(REPO_ROOT, "docs");
const docNames = readdirSync(DOCS).filter((f) => f.endsWith(".md")).map((f) => f.slice(0, -3)).sort();
const firstHeading = (name: string) => /^# (.+)$/m.exec(readFileSync(join(DOCS, `${name}.md`), "utf8"))![1]!;
const DEVELOPER_MARK = "<!-- shiro help: for developers -->";
const isDeveloperDoc = (name: string) => readFileSync(join(DOCS, `${name}.md`), "utf8").split("\n").includes(DEVELOPER_MARK);

/**
 * The compiled shiro copied alone into an empty folder, as an installed binary is: no docs/ beside
 * it, and it runs in another empty folder. The binary of `bun run test` (SHIRO_BIN), or one built here.
 */
let installed = "";
beforeAll(async () => {
  const dir = tempDir("shiro-installed-");
  let bin = process.env.SHIRO_BIN;
  if (!bin) {
    bin = join(tempDir("shiro-help-build-"), "shiro");
    const build = Bun.spawn([process.execPath, "run", "build", "--outfile", bin], { cwd: REPO_ROOT, stdout: "ignore", stderr: "pipe" });
    if ((await build.exited) !== 0) throw new Error(`build failed: ${await new Response(build.stderr).text()}`);
  }
  installed = join(dir, "shiro");
  copyFileSync(bin, installed);
  Bun.spawnSync(["chmod", "755", installed]);
  expect(readdirSync(dir)).toEqual(["shiro"]);
}, 180_000);

/** Runs the installed copy with stdout a pipe, in an empty folder. */
function runInstalled(args: string[]) {
  const run = Bun.spawnSync([installed, ...args], { cwd: tempDir("shiro-elsewhere-"), env: { PATH: process.env.PATH, HOME: tempDir("shiro-home-"), NO_COLOR: "1" } });
  return { code: run.exitCode, stdout: run.stdout.toString(), stderr: run.stderr.toString() };
}

describe("an installed binary, alone in a folder, carries the guides", () => {
  test("shiro help lists every doc as a topic with its first heading; the developer pages come last, apart", () => {
    const run = runInstalled(["help"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const rows = run.stdout.split("\n");
    const listed = rows.filter((row) => /^ {2}\S/.test(row)).map((row) => row.trim().split(/\s+/)[0]);
    const user = docNames.filter((n) => !isDeveloperDoc(n));
    const developer = docNames.filter(isDeveloperDoc);
    expect(listed).toEqual([...user, ...developer]);
    expect(user).toEqual(expect.arrayContaining(["interactive", "headless", "permissions", "configuration", "agents", "extending", "state"]));
    expect(developer).toEqual(expect.arrayContaining(["architecture", "performance", "reliability"]));
    for (const name of docNames) expect(rows.find((row) => row.startsWith(`  ${name} `))?.trim().replace(/^\S+\s+/, "")).toBe(firstHeading(name));
    expect(rows.indexOf("For people working on shiro itself:")).toBeGreaterThan(rows.findIndex((r) => r.startsWith(`  ${user.at(-1)} `)));
  });

  test("shiro help <topic> into a pipe prints the doc as Markdown, its links to other docs as the command that shows them", () => {
    const run = runInstalled(["help", "permissions"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const doc = readFileSync(join(DOCS, "permissions.md"), "utf8");
    expect(run.stdout).toStartWith(`# ${firstHeading("permissions")}\n`);
    expect(run.stdout.split("\n").length).toBe(doc.trimEnd().split("\n").length + 1);
    // `[configuration.md](configuration.md)` in the doc: no folder to open, so the command instead.
    expect(doc).toMatch(/\]\(configuration\.md[#)]/);
    expect(run.stdout).not.toMatch(/\]\([a-z-]+\.md[#)]/);
    expect(run.stdout).toContain("`shiro help configuration`");
  });

  test("a developer page prints without its mark", () => {
    expect(readFileSync(join(DOCS, "performance.md"), "utf8")).toStartWith(`${DEVELOPER_MARK}\n`);
    const run = runInstalled(["help", "performance"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toStartWith(`# ${firstHeading("performance")}\n`);
    expect(run.stdout).not.toContain(DEVELOPER_MARK);
  });

  test("every `shiro help <topic>` that --help names is a topic it carries", () => {
    const help = runInstalled(["--help"]);
    const named = [...help.stdout.matchAll(/shiro help ([a-z][a-z-]*)/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThanOrEqual(3);
    for (const name of named) {
      const run = runInstalled(["help", name]);
      expect({ name, code: run.code, start: run.stdout.slice(0, 2) }).toEqual({ name, code: 0, start: "# " });
    }
  });

  test("a config file with a mistake points at shiro help configuration, which it carries", async () => {
    const home = tempDir("shiro-home-");
    await Bun.write(join(home, ".shiro-neko", "config.json"), '{ "modle": "x" }');
    const run = Bun.spawnSync([installed, "-p", "hi"], { cwd: tempDir(), env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: join(home, ".shiro-neko") } });
    expect(run.exitCode).toBe(2);
    expect(run.stderr.toString()).toContain("See shiro help configuration.");
    expect(runInstalled(["help", "configuration"]).stdout).toStartWith(`# ${firstHeading("configuration")}\n`);
  });
});

describe("help is a command only alone or before a topic it knows", () => {
  const serve = useFakeServer();
  for (const words of [["help", "me", "fix", "the", "tests"], ["help", "nonsense"], ["help", "permissions", "please"]]) {
    test(`shiro ${words.join(" ")} is a prompt`, async () => {
      const s = await serve({ text: "sure" });
      const run = await runShiro([...words, "--json"], { baseURL: s.url });
      expect(run.code).toBe(0);
      expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: "result", status: "success" });
      expect(JSON.stringify(s.requests.at(-1)!.body)).toContain(words.join(" "));
    });
  }

  test("shiro -- help permissions is a prompt too", async () => {
    const s = await serve({ text: "sure" });
    const run = await runShiro(["--json", "--", "help", "permissions"], { baseURL: s.url });
    expect(run.code).toBe(0);
    expect(JSON.stringify(s.requests.at(-1)!.body)).toContain("help permissions");
  });
});

describe("in a terminal", () => {
  const { serve, start } = usePty();

  test("shiro help doctor is rendered: headings without their marks, code in a gutter, a table drawn, links as commands", async () => {
    const s = await serve();
    const pty = await start({ baseURL: s.url, args: ["help", "doctor"], cols: 100, rows: 50 });
    await pty.waitFor("does the same for any session.");
    expect(await pty.exited).toBe(0);
    const screen = pty.screen();
    const rows = screen.split("\n");
    expect(rows[0]).toBe("Checking the set-up: shiro doctor"); // the code in colour, without its backticks
    expect(screen).not.toMatch(/^#+ /m);
    expect(rows.some((row) => row.startsWith("  │ "))).toBe(true); // the fenced example
    expect(screen).toMatch(/─┼─/); // the table of checks, drawn
    expect(screen).toMatch(/\(see shiro help\b/); // [configuration.md](configuration.md#…), in a table cell (wrapped)
    expect(screen).not.toMatch(/\]\([a-z-]+\.md[#)]/);
    for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(100);
  });
});
