// A session saved before the five git_* tools became one `git` tool: its history names tools that
// no longer exist. It still loads, resumes and prunes; the old calls are digested like any call.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DIGEST_HEADER } from "../../lib/prune/digest.ts";
import { jsonLines, runShiro, tempDir } from "../support/cli.ts";
import { WIRES } from "../support/requests.ts";
import { useFakeServer } from "../support/use-fake-server.ts";

const serve = useFakeServer();
const STEPS = 12;
/** What the old tools took and returned, call by call. */
const OLD = [
  { toolName: "git_status", input: {}, value: "## main\n M src/a.ts" },
  { toolName: "git_log", input: { path: "src", limit: 5 }, value: "abc1234 2026-11-01 Ada: first\ndef5678 2026-11-02 Ada: second" },
  { toolName: "git_diff", input: { staged: true }, value: "No staged changes." },
];

/** Renames each saved bash call (and its result) to an old git tool, as a session saved then would hold it. */
function ageSession(file: string): void {
  const record = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map<string, (typeof OLD)[number]>();
  for (const message of record.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (part.type === "tool-call" && part.toolName === "bash") {
        const old = OLD[byId.size % OLD.length]!;
        byId.set(part.toolCallId, old);
        Object.assign(part, { toolName: old.toolName, input: old.input });
      }
      const old = part.type === "tool-result" ? byId.get(part.toolCallId) : undefined;
      if (old) Object.assign(part, { toolName: old.toolName, output: { type: "text", value: `${old.value}\n${"x".repeat(3000)}` } });
    }
  }
  expect(byId.size).toBe(STEPS);
  writeFileSync(file, JSON.stringify(record));
}

/** Every string anywhere in a request body. */
const stringsIn = (value: unknown): string[] =>
  typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(stringsIn) : [];

for (const { wire, flags } of WIRES) {
  describe(`a session with the old git tools over ${wire}`, () => {
    test("resumes with -c and prunes: the old calls become digest lines, the strict server sees no broken history", async () => {
      const home = tempDir();
      const work = tempDir();
      const args = ["--json", "--yolo", ...flags];
      const s = await serve(...Array.from({ length: STEPS }, () => ({ toolCalls: [{ name: "bash", input: { command: "echo step" } }] })), { text: "looked" });
      const first = await runShiro(["-p", "look at the repository", ...args], { baseURL: s.url, home, cwd: work });
      expect(first.code).toBe(0);
      const sessions = join(home, ".shiro-neko", "sessions");
      const [file] = readdirSync(sessions).filter((name) => name.endsWith(".json"));
      ageSession(join(sessions, file!));

      const before = s.requests.length;
      s.push({ text: "carried on" });
      const second = await runShiro(["-c", "-p", "carry on", ...args], { baseURL: s.url, home, cwd: work, env: { SHIRO_COMPACT_AT: "8000" } });
      expect(second.code).toBe(0);
      expect(jsonLines(second.stdout).at(-1)).toMatchObject({ status: "success", sessionId: jsonLines(first.stdout).at(-1)!.sessionId });
      expect(s.errors).toEqual([]);
      const digest = stringsIn(s.requests[before]!.body).find((text) => text.startsWith(DIGEST_HEADER));
      expect(digest).toBeDefined();
      expect(digest).toContain("- git_status → 3 lines");
      expect(digest).toContain('- git_log "src" → 3 lines');
      expect(digest).toContain("- git_diff → 2 lines");
    });
  });
}
