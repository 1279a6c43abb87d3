// Standalone mode: `bun spec/support/fake-openai.ts --script replies.json` for demos and benchmarks.
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { tempDir } from "../cli.ts";
import { join, resolve } from "node:path";
import type { Reply } from "./types.ts";

const entry = resolve(import.meta.dir, "../fake-openai.ts");
const children: Bun.Subprocess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill();
});

function start(replies: Reply[], args: string[] = []) {
  const file = join(tempDir("fake-openai-cli-"), "script.json");
  writeFileSync(file, JSON.stringify(replies));
  const child = Bun.spawn(["bun", entry, "--script", file, ...args], { stdout: "pipe", stderr: "pipe" });
  children.push(child);
  return child;
}

/** Read stdout up to the first newline; `rest()` reads everything after it until the process closes stdout. */
async function firstLine(child: Bun.Subprocess<"ignore", "pipe", "pipe">) {
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  const cut = text.indexOf("\n");
  const rest = async () => {
    let more = text.slice(cut + 1);
    for (let r = await reader.read(); !r.done; r = await reader.read()) more += decoder.decode(r.value);
    return more;
  };
  return { line: text.slice(0, cut), rest };
}

test("prints one URL line, serves the script, exits 2 s after it is exhausted", async () => {
  const child = start([{ text: "from the script" }]);
  const { line, rest } = await firstLine(child);
  expect(line).toMatch(/^FAKE_OPENAI_URL=http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const url = line.slice("FAKE_OPENAI_URL=".length);
  const res = await fetch(`${url}/chat/completions`, {
    method: "POST",
    body: JSON.stringify({ model: "gpt-test", stream: true, messages: [{ role: "user", content: "hi" }] }),
  });
  const body = await res.text();
  expect(body).toContain(`"content":" script"`);
  expect(body).toEndWith("data: [DONE]\n\n");
  const served = Date.now();
  expect(await child.exited).toBe(0);
  expect(Date.now() - served).toBeGreaterThanOrEqual(1500);
  expect(await rest()).toBe(""); // nothing after the URL line
});

test("exits on SIGTERM with replies left; protocol violations go to stderr and exit 1", async () => {
  const child = start([{ text: "never used" }]);
  const url = (await firstLine(child)).line.slice("FAKE_OPENAI_URL=".length);
  await fetch(`${url}/completions`, { method: "POST", body: "{}" });
  child.kill("SIGTERM");
  expect(await child.exited).toBe(1);
  expect(await new Response(child.stderr).text()).toContain("unexpected endpoint POST /v1/completions");
});

test("--vendor serves that vendor mode; an unknown one is refused", async () => {
  const child = start([{ text: "hi" }], ["--vendor", "ollama"]);
  const url = (await firstLine(child)).line.replace("FAKE_OPENAI_URL=", "");
  const res = await fetch(`${url}/chat/completions`, { method: "POST", body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "hi" }] }) });
  const body = await res.text();
  expect(body).toContain('"system_fingerprint":"fp_ollama"');
  expect(body).not.toContain("[DONE]");
  child.kill("SIGTERM");
  expect(await child.exited).toBe(0);
  const bad = start([], ["--vendor", "nope"]);
  expect(await bad.exited).toBe(2);
});
