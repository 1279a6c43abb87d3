// The transcript beside a session (lib/sessions/transcript-log.ts): appended to, never rewritten;
// each text capped with a note where it was cut; a torn last line (a crash mid-write) costs only
// that line; copied with a fork, removed with the session, swept when its session is gone.
import { expect, test } from "bun:test";
import { appendFileSync, existsSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createTranscript } from "../../lib/app/transcript.ts";
import { copySessionJournal } from "../../lib/sessions/fork.ts";
import { sessionPath } from "../../lib/sessions/paths.ts";
import { removeSession } from "../../lib/sessions/store.ts";
import { sweepLeftovers } from "../../lib/sessions/sweep.ts";
import { appendTranscript, capText, readTranscript, transcriptPath } from "../../lib/sessions/transcript-log.ts";
import { makeTempDir } from "../support/temp-dirs.ts";

const ID = "0190a3b4-1111-7000-8000-000000000001";
const OTHER = "0190a3b4-2222-7000-8000-000000000002";

test("a text past the cap keeps its start and, mostly, its end, with a line saying how much was cut", () => {
  const text = Array.from({ length: 5_000 }, (_, i) => `line ${i}`).join("\n");
  const capped = capText(text, 4_000);
  expect(capped.length).toBeLessThan(4_200);
  expect(capped.startsWith("line 0\nline 1\n")).toBe(true);
  expect(capped.endsWith("line 4998\nline 4999")).toBe(true);
  expect(capped).toContain(`[… ${(text.length - 4_000).toLocaleString("en-US")} characters cut here: the transcript keeps 4,000 of each output]`);
  expect(capText("short", 4_000)).toBe("short");
});

test("records are appended in order and read back; a missing file reads as none", () => {
  const home = makeTempDir("shiro-home-");
  expect(readTranscript(home, ID)).toEqual({ records: [], skipped: 0, dropped: 0 });
  appendTranscript(home, ID, [{ type: "prompt", text: "fix it", at: "2026-01-01T00:00:00.000Z" }]);
  appendTranscript(home, ID, [{ type: "shell", command: "npm test", output: "1 failed", exitCode: 1, at: "2026-01-01T00:00:01.000Z" }]);
  const read = readTranscript(home, ID);
  expect(read.records.map((r) => r.type)).toEqual(["prompt", "shell"]);
  expect(read.skipped).toBe(0);
});

test("a torn last line is skipped, what was there before it is kept, and the next append starts on a line of its own", () => {
  const home = makeTempDir("shiro-home-");
  appendTranscript(home, ID, [
    { type: "prompt", text: "one", at: "" },
    { type: "answer", text: "first answer" },
  ]);
  // A crash in the middle of writing the next record.
  appendFileSync(transcriptPath(home, ID), '{"type":"result","id":"c1","tool":"bash","summ');
  expect(readTranscript(home, ID).records.map((r) => r.type)).toEqual(["prompt", "answer"]);
  expect(readTranscript(home, ID).skipped).toBe(1);

  appendTranscript(home, ID, [{ type: "notice", text: "after the crash" }]);
  const read = readTranscript(home, ID);
  expect(read.records.map((r) => r.type)).toEqual(["prompt", "answer", "notice"]);
  expect(read.skipped).toBe(1);
  // Garbage and records of unknown types are skipped too, never thrown.
  appendFileSync(transcriptPath(home, ID), 'not json\n{"type":"hologram"}\n{"type":"answer"}\n');
  expect(readTranscript(home, ID).skipped).toBe(4);
});

test("a file past the read limit shows its newest records and says how much was left out", () => {
  const home = makeTempDir("shiro-home-");
  for (let i = 0; i < 100; i++) appendTranscript(home, ID, [{ type: "notice", text: `notice ${i}` }]);
  const read = readTranscript(home, ID, 500);
  expect(read.dropped).toBeGreaterThan(0);
  expect(read.skipped).toBe(0); // the piece of a line at the cut is not counted as torn
  expect(read.records.at(-1)).toEqual({ type: "notice", text: "notice 99" });
  expect(read.records.length).toBeLessThan(100);
});

test("the recorder keeps a call's whole streamed output (not the model's copy), reasoning, answers and marks, capped", () => {
  const home = makeTempDir("shiro-home-");
  const log = createTranscript({ home, id: () => ID, history: () => [] });
  log.prompt("count");
  log.event({ type: "reasoning", text: "let me " });
  log.event({ type: "reasoning", text: "count" });
  log.event({ type: "tool-call", id: "c1", tool: "bash", subject: "seq 3", input: { command: "seq 3" } });
  log.event({ type: "tool-output", id: "c1", tool: "bash", stream: "stdout", chunk: "1\n2\n" });
  log.event({ type: "tool-output", id: "c1", tool: "bash", stream: "stdout", chunk: "3\n" });
  log.event({ type: "tool-result", id: "c1", tool: "bash", subject: "seq 3", summary: "exit 0", output: "Exit code 0\n1\n[truncated]", exitCode: 0 });
  log.event({ type: "text", text: "Three." });
  log.event({ type: "done", status: "success", steps: 2, usage: { inputTokens: 1, outputTokens: 1 } });
  log.mark("rewound to just before prompt 1");
  const records = readTranscript(home, ID).records;
  expect(records.map((r) => r.type)).toEqual(["prompt", "reasoning", "call", "result", "answer", "mark"]);
  expect(records[1]).toEqual({ type: "reasoning", text: "let me count" });
  expect(records[3]).toMatchObject({ type: "result", output: "1\n2\n3\n", exitCode: 0, outcome: "ok" });
  expect(log.records().records).toEqual(records);
});

test("a session saved before transcripts were kept begins its transcript with its conversation, marked as such", () => {
  const home = makeTempDir("shiro-home-");
  const history = [
    { role: "user" as const, content: [{ type: "text" as const, text: "old prompt" }] },
    { role: "assistant" as const, content: [{ type: "tool-call" as const, toolCallId: "t1", toolName: "bash", input: { command: "ls" } }] },
    { role: "tool" as const, content: [{ type: "tool-result" as const, toolCallId: "t1", toolName: "bash", output: { type: "text" as const, value: "Exit code 0\na.txt" } }] },
    { role: "assistant" as const, content: [{ type: "text" as const, text: "old answer" }] },
  ];
  const log = createTranscript({ home, id: () => ID, history: () => history });
  expect(log.records().records.map((r) => r.type)).toEqual(["mark", "prompt", "call", "result", "answer"]);
  expect(existsSync(transcriptPath(home, ID))).toBe(false); // reading writes nothing
  log.prompt("new prompt");
  const records = readTranscript(home, ID).records;
  expect(records.map((r) => r.type)).toEqual(["mark", "prompt", "call", "result", "answer", "prompt"]);
  expect(records[3]).toMatchObject({ output: "Exit code 0\na.txt" });
});

test("a fork copies the transcript; removing a session removes it; a transcript whose session is gone is swept", () => {
  const home = makeTempDir("shiro-home-");
  appendTranscript(home, ID, [{ type: "answer", text: "kept in the copy" }]);
  copySessionJournal(home, ID, OTHER);
  expect(readTranscript(home, OTHER).records).toEqual([{ type: "answer", text: "kept in the copy" }]);
  appendTranscript(home, OTHER, [{ type: "answer", text: "only in the copy" }]);
  expect(readTranscript(home, ID).records).toHaveLength(1); // nothing shared

  writeFileSync(sessionPath(home, ID), "{}");
  removeSession(home, ID);
  expect(existsSync(transcriptPath(home, ID))).toBe(false);

  // OTHER has no session file: once old enough, the sweep takes its transcript.
  const old = new Date(Date.now() - 60 * 60_000);
  utimesSync(transcriptPath(home, OTHER), old, old);
  sweepLeftovers(home);
  expect(existsSync(transcriptPath(home, OTHER))).toBe(false);
});

test("a line naming a record type like an object's own property (constructor, __proto__) is skipped, not thrown on", () => {
  const home = makeTempDir("shiro-home-");
  appendTranscript(home, ID, [{ type: "notice", text: "first" }]);
  appendFileSync(transcriptPath(home, ID), '{"type":"constructor"}\n{"type":"toString","text":"x"}\n{"type":"__proto__"}\n');
  appendTranscript(home, ID, [{ type: "mark", text: "last" }]);
  const read = readTranscript(home, ID);
  expect(read.records.map((r) => r.type)).toEqual(["notice", "mark"]);
  expect(read.skipped).toBe(3);
});

test("the transcript file is the user's alone: 0600, in a sessions folder of 0700 when it makes one", () => {
  const home = makeTempDir("shiro-home-");
  appendTranscript(home, ID, [{ type: "notice", text: "x" }]);
  expect(statSync(transcriptPath(home, ID)).mode & 0o777).toBe(0o600);
  expect(statSync(dirname(transcriptPath(home, ID))).mode & 0o777).toBe(0o700);
});
