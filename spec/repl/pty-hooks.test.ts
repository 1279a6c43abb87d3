// Hooks in the interactive loop, as a person sees them: the trust question for a project's hooks,
// a hook's decision in one dim line, /hooks, and the Notification hook when a question waits.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cli.ts";
import { toolOutputsIn } from "../support/requests.ts";
import { KEYS, usePty } from "./pty.ts";

const { serve, start } = usePty();
const QUESTION = "Trust these hooks?";

test("a project's hooks ask once, showing each command; a block shows in one line; /hooks lists them with their last result", async () => {
  const home = tempDir();
  const cwd = tempDir();
  mkdirSync(join(cwd, ".shiro"));
  const guard = `echo 'no curl here' >&2; exit 2`;
  writeFileSync(join(cwd, ".shiro", "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: guard }] }] } }));
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: "curl example.com" } }] }, { text: "blocked, fine" });

  let pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitFor(QUESTION);
  expect(pty.screen()).toContain(guard);
  pty.line("y");
  await pty.waitForPrompt(1);
  pty.line("fetch it");
  await pty.waitFor("blocked, fine");
  expect(pty.screen()).toContain("hook PreToolUse blocked Bash: no curl here");
  expect(toolOutputsIn(s.requests[1]!.body).join("")).toContain("no curl here");
  pty.line("/hooks");
  await pty.waitFor(/PreToolUse \[Bash\].*exit 2, deny/s);
  expect(pty.screen().replaceAll("\n", "")).toContain(".shiro/settings.json");
  pty.write(KEYS.ctrlD);
  await pty.exited;

  // The same file: no question. A changed one asks again, and "no" leaves its hooks off.
  pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitForPrompt(1);
  expect(pty.screen()).not.toContain(QUESTION);
  pty.write(KEYS.ctrlD);
  await pty.exited;
  writeFileSync(join(cwd, ".shiro", "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "exit 0" }] }] } }));
  pty = await start({ baseURL: s.url, home, cwd });
  await pty.waitFor(QUESTION);
  pty.line("n");
  await pty.waitForPrompt(1);
  expect(pty.screen()).toContain("has hooks you did not trust, so they do not run");
}, 60_000);

test("a question that waits fires the Notification hook (permission_prompt); SessionEnd runs on the way out", async () => {
  const home = tempDir();
  const cwd = tempDir();
  const seen = join(cwd, "notified.json");
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(
    join(home, ".shiro-neko", "config.json"),
    JSON.stringify({
      hooks: {
        Notification: [{ matcher: "permission_prompt", hooks: [{ type: "command", command: `cat > ${seen}` }] }],
        SessionEnd: [{ hooks: [{ type: "command", command: `touch ${join(cwd, "ended")}` }] }],
      },
    }),
  );
  const s = await serve({ toolCalls: [{ name: "bash", input: { command: "touch made" } }] }, { text: "made it" });
  const pty = await start({ baseURL: s.url, home, cwd, env: { SHIRO_NOTIFY_MS: "300,60000" } });
  await pty.waitForPrompt(1);
  pty.line("make it");
  await pty.waitFor("allow?");
  // The hook writes the file as it reads its input: wait until what it wrote is whole.
  const whole = () => {
    try {
      return JSON.parse(readFileSync(seen, "utf8"));
    } catch {
      return undefined;
    }
  };
  for (let i = 0; i < 50 && !whole(); i++) await Bun.sleep(100);
  const notified = whole();
  expect(notified).toMatchObject({ hook_event_name: "Notification", notification_type: "permission_prompt", title: "shiro" });
  expect(notified.message).toContain("touch made");
  pty.write("y");
  await pty.waitFor("made it");
  await pty.waitForPrompt(1);
  pty.write(KEYS.ctrlD);
  await pty.exited;
  expect(existsSync(join(cwd, "ended"))).toBe(true);
}, 60_000);

test("a PreCompact hook that exits 2 keeps /compact from running, and says why", async () => {
  const home = tempDir();
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ hooks: { PreCompact: [{ matcher: "manual", hooks: [{ type: "command", command: "echo 'save the transcript first' >&2; exit 2" }] }] } }));
  const s = await serve({ text: "an answer" });
  const pty = await start({ baseURL: s.url, home });
  await pty.waitForPrompt(1);
  pty.line("hello");
  await pty.waitFor("an answer");
  await pty.waitForPrompt(2);
  pty.line("/compact");
  await pty.waitFor("A PreCompact hook kept /compact from running: save the transcript first");
  expect(s.requests).toHaveLength(1); // no summary was asked for
}, 30_000);

test("the loop idle after a turn fires the Notification hook (idle_prompt); a new prompt calls it off", async () => {
  const home = tempDir();
  const seen = join(tempDir(), "idle.log");
  mkdirSync(join(home, ".shiro-neko"));
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ hooks: { Notification: [{ matcher: "idle_prompt", hooks: [{ type: "command", command: `cat >> ${seen}; echo >> ${seen}` }] }] } }));
  const s = await serve({ text: "first" }, { text: "second" });
  const pty = await start({ baseURL: s.url, home, env: { SHIRO_NOTIFY_MS: "60000,1500" } });
  await pty.waitForPrompt(1);
  pty.line("one");
  await pty.waitFor("first");
  pty.line("two"); // before the idle delay: the first turn's notification never comes
  await pty.waitFor("second");
  for (let i = 0; i < 50 && !existsSync(seen); i++) await Bun.sleep(100);
  await Bun.sleep(1_800); // long enough for a second one, had the first turn's not been called off
  const calls = readFileSync(seen, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject({ hook_event_name: "Notification", notification_type: "idle_prompt", message: "shiro is waiting for your input" });
}, 30_000);
