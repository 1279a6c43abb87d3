// In the sandbox, the usual credential files of cloud, package, VCS and shell tools are hidden from
// every command, --yolo included, and config `sandboxHide` hides more; `shiro doctor` lists them.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runShiro } from "../support/cli.ts";
import { useFakeServer } from "../support/use-fake-server.ts";
import { toolOutputsIn } from "../support/requests.ts";
import { reportSkip, sandboxUnavailable, siblingLayout } from "../sandbox/support.ts";
import { SANDBOX_AS_THE_HOST_HAS_IT } from "../support/host-tools.ts";

const serve = useFakeServer();
const unavailable = sandboxUnavailable();
reportSkip("spec/e2e/sandbox-credentials.test.ts", unavailable);
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Each credential file, relative to HOME, holding a secret named after it. */
const CREDENTIALS = [
  ".cache/huggingface/token",
  ".bash_history",
  ".zsh_history",
  ".config/sops/age/keys.txt",
  ".terraformrc",
  ".terraform.d/credentials.tfrc.json",
  ".config/rclone/rclone.conf",
  ".s3cfg",
  ".docker/config.json",
  ".config/gh/hosts.yml",
  ".config/glab-cli/config.yml",
  ".npmrc",
  ".cargo/credentials.toml",
  "tokens/deploy.txt", // hidden by sandboxHide
];
const secretOf = (file: string) => `hunter2-${file.replace(/\W/g, "-")}`;

function layout() {
  const { top, home, cwd } = siblingLayout("shiro-e2e-creds-");
  made.push(top);
  for (const file of CREDENTIALS) {
    mkdirSync(dirname(join(home, file)), { recursive: true });
    writeFileSync(join(home, file), `${secretOf(file)}\n`);
  }
  mkdirSync(join(home, ".shiro-neko"), { recursive: true });
  writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ sandboxHide: ["~/tokens"] }));
  writeFileSync(join(home, "notes.txt"), "visible-notes\n");
  return { home, cwd };
}

test.skipIf(unavailable !== undefined)("--yolo: no command reads a credential file, built-in or added with sandboxHide; other home files stay readable", async () => {
  const { home, cwd } = layout();
  const command = [...CREDENTIALS, "notes.txt"].map((file) => `cat ~/${file}`).join("; ");
  const s = await serve({ toolCalls: [{ name: "bash", input: { command } }] }, { text: "done" });
  const run = await runShiro(["-p", "read them", "--yolo"], { baseURL: s.url, cwd, home, env: SANDBOX_AS_THE_HOST_HAS_IT });
  expect(run.code).toBe(0);
  const [output] = toolOutputsIn(s.requests[1]!.body);
  expect(output).toContain("visible-notes");
  expect(CREDENTIALS.filter((file) => output!.includes(secretOf(file)))).toEqual([]);
});

test.skipIf(unavailable !== undefined)("shiro doctor lists the hidden places that exist here, sandboxHide's included", async () => {
  const { home, cwd } = layout();
  const run = await runShiro(["doctor"], { baseURL: "http://127.0.0.1:9/v1", cwd, home, env: SANDBOX_AS_THE_HOST_HAS_IT });
  const hidden = run.stdout.split("\n").find((line) => line.trim().startsWith("hidden:"));
  for (const place of ["~/.cache/huggingface/token", "~/.bash_history", "~/.config/sops/age", "~/.terraformrc", "~/.config/rclone", "~/.s3cfg", "~/.docker", "~/.config/glab-cli", "~/tokens"]) {
    expect(hidden).toContain(place);
  }
});
