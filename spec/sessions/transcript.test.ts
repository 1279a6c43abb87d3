import { expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { exportSession, renderTranscript } from "../../lib/sessions/transcript.ts";
import { subjectKindsOf } from "../../lib/sessions/transcript-items.ts";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import { toolsFor } from "../../lib/tools/index.ts";
import { parseSession } from "../../lib/sessions/serialize.ts";
import { makeRecord } from "./support/fixtures.ts";
import { INTERRUPTION_NOTE, interruptionMessage } from "../../lib/text/interruption.ts";
import { resultNote, withResultNotes } from "../../lib/agent/result-notes.ts";
import { callContext, plainTheme, renderEvent } from "../../lib/render.ts";
import { replayRows } from "../../cmd/repl/replay.ts";
import { createTheme } from "../../cmd/repl/theme.ts";
import { transcriptItems } from "../../lib/sessions/transcript-items.ts";

const messages: ModelMessage[] = [
  { role: "user", content: "why does the pagination test fail?" },
  {
    role: "assistant",
    content: [
      { type: "reasoning", text: "secret thoughts" },
      { type: "text", text: "Let me read the test." },
      { type: "tool-call", toolCallId: "c1", toolName: "read_file", input: { path: "spec/page.test.ts" } },
      { type: "tool-call", toolCallId: "c2", toolName: "bash", input: { command: "bun test spec/page.test.ts\n--bail" } },
    ],
  },
  {
    role: "tool",
    content: [
      { type: "tool-result", toolCallId: "c1", toolName: "read_file", output: { type: "text", value: "     1\timport { page } from '../src/page';\n     2\t\n     3\ttest('last page', () => {});" } },
      { type: "tool-result", toolCallId: "c2", toolName: "bash", output: { type: "text", value: "Exit code 1\n1 fail" } },
    ],
  },
  { role: "assistant", content: [{ type: "text", text: "The boundary is off by one: `<=` should be `<`." }] },
  { role: "user", content: [{ type: "text", text: "fix it" }] },
];

test("show: prompts, answers, one line per tool call with its subject, results in the live line's words", () => {
  const record = { ...makeRecord({ messages }), title: "why does the pagination test fail?" };
  const text = renderTranscript(record);
  expect(text).toStartWith("why does the pagination test fail?\nsession " + record.id);
  expect(text).toContain(
    [
      "› why does the pagination test fail?",
      "",
      "Let me read the test.",
      "→ read_file spec/page.test.ts",
      "→ bash bun test spec/page.test.ts --bail",
      "  ✓ read_file: 3 lines",
      "  ✗ bash: exit 1 · bun test spec/page.test.ts",
      "",
      "The boundary is off by one: `<=` should be `<`.",
      "",
      "› fix it",
    ].join("\n"),
  );
  expect(text).not.toContain("secret thoughts");
  expect(text.endsWith("\n")).toBe(true);
});

test("with the tools' kinds of subject, a file tool's result names its path as a command's names its command", () => {
  const text = renderTranscript(makeRecord({ messages }), { subjectKind: subjectKindsOf(toolsFor({ notebook: createNotebook() })) });
  expect(text).toContain("  ✓ read_file: 3 lines · spec/page.test.ts\n  ✗ bash: exit 1 · bun test spec/page.test.ts\n");
});

test("a subjectOf from the tool definitions is used when given", () => {
  const text = renderTranscript(makeRecord({ messages }), { subjectOf: (tool) => `<${tool}>` });
  expect(text).toContain("→ read_file <read_file>");
});

test("export md is a readable transcript", () => {
  const record = { ...makeRecord({ messages }), title: "why does the pagination test fail?" };
  const md = exportSession(record, "md");
  expect(md).toStartWith("# why does the pagination test fail?\n\n- session " + record.id);
  expect(md).toContain(
    [
      "## User",
      "",
      "why does the pagination test fail?",
      "",
      "## Assistant",
      "",
      "Let me read the test.",
      "",
      "- **read_file** `spec/page.test.ts`",
      "  - ✓ `3 lines`",
      "- **bash** `bun test spec/page.test.ts --bail`",
      "  - ✗ `exit 1`",
      "",
      "The boundary is off by one: `<=` should be `<`.",
      "",
      "## User",
      "",
      "fix it",
    ].join("\n"),
  );
});

test("export json is the record itself and parses back to it", () => {
  const record = makeRecord({ messages });
  const json = exportSession(record, "json");
  expect(json.split("\n").length).toBeGreaterThan(10); // pretty-printed
  const parsed = parseSession(json);
  expect(parsed).toEqual({ ok: true, record });
});

test("an interrupted turn shows as interrupted in show and export, never as a prompt the user typed", () => {
  const cut: ModelMessage[] = [{ role: "user", content: "explain it" }, { role: "assistant", content: [{ type: "text", text: "Half of an answ" }] }, interruptionMessage(), { role: "user", content: "go on" }];
  const record = makeRecord({ messages: cut });
  const shown = renderTranscript(record);
  expect(shown).toContain("(interrupted)");
  expect(shown).not.toContain(INTERRUPTION_NOTE);
  const md = exportSession(record, "md");
  expect(md).toContain("Half of an answ\n\n_(interrupted by the user)_");
  expect(md).not.toContain(INTERRUPTION_NOTE);
  // The note stays in the record itself: it is what the model is sent.
  expect(exportSession(record, "json")).toContain(INTERRUPTION_NOTE.slice(1, 30));
});

test("show: calls made together each end on a line that names their command; one cut short reads interrupted", () => {
  const parallel: ModelMessage[] = [
    { role: "user", content: "run both" },
    {
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: "a", toolName: "bash", input: { command: "sleep 31" } },
        { type: "tool-call", toolCallId: "b", toolName: "bash", input: { command: "sleep 32" } },
      ],
    },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "a", toolName: "bash", output: { type: "text", value: "Interrupted by the user; the command was killed with every process it started.\n(no output)" } },
        { type: "tool-result", toolCallId: "b", toolName: "bash", output: { type: "error-text", value: "interrupted before it finished; its effects are unknown. Check the current state before relying on it." } },
      ],
    },
  ];
  const text = renderTranscript(makeRecord({ messages: parallel }));
  expect(text).toContain(["→ bash sleep 31", "→ bash sleep 32", "  ■ bash: interrupted · sleep 31", "  ■ bash: interrupted · sleep 32"].join("\n"));
});

test("show: a call left without a result (shiro was killed while it ran) reads interrupted after its group", () => {
  const killed: ModelMessage[] = [
    { role: "user", content: "make both" },
    {
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: "a", toolName: "bash", input: { command: "touch a.txt" } },
        { type: "tool-call", toolCallId: "b", toolName: "bash", input: { command: "touch b.txt && sleep 30" } },
      ],
    },
    { role: "tool", content: [{ type: "tool-result", toolCallId: "a", toolName: "bash", output: { type: "text", value: "Exit code 0\n(no output)" } }] },
  ];
  const text = renderTranscript(makeRecord({ messages: killed }));
  expect(text).toContain(["→ bash touch a.txt", "→ bash touch b.txt && sleep 30", "  ✓ bash: exit 0 · touch a.txt", "  ■ bash: interrupted · touch b.txt && sleep 30"].join("\n"));
  expect(exportSession(makeRecord({ messages: killed }), "md")).toContain("- **bash** `touch a.txt`\n  - ✓ `exit 0`\n- **bash** `touch b.txt && sleep 30`\n  - ■ `interrupted`");
});

test("the header's token counts read as /cost writes them, with thousands separated", () => {
  const record = { ...makeRecord(), inputTokens: 1_234_567, outputTokens: 8_862 };
  expect(renderTranscript(record)).toContain("1,234,567 input and 8,862 output tokens");
});

const kinds = { subjectKind: subjectKindsOf(toolsFor({ notebook: createNotebook() })) };
const oneCall = (tool: string, input: unknown, output: unknown, shiro?: Record<string, string>): ModelMessage[] => [
  { role: "user", content: "go" },
  { role: "assistant", content: [{ type: "tool-call", toolCallId: "k", toolName: tool, input }] },
  { role: "tool", content: [{ type: "tool-result", toolCallId: "k", toolName: tool, output, ...(shiro ? { providerOptions: { shiro } } : {}) } as never] },
];

test("show: a summary kept with its result is the line's words, as the live line had them", () => {
  const kept = oneCall("read_file", { path: "src/a.ts" }, { type: "text", value: "     1\tx\n\n[Showing lines 1-1 of 42 in src/a.ts. Call read_file with offset 2 to read more.]" }, { summary: "42 lines" });
  expect(renderTranscript(makeRecord({ messages: kept }), kinds)).toContain("→ read_file src/a.ts\n  ✓ read_file: 42 lines · src/a.ts\n");
  const task = oneCall("task", { tasks: [] }, { type: "text", value: "Subagent 1 failed." }, { summary: "failed: no report (error)" });
  expect(renderTranscript(makeRecord({ messages: task }), kinds)).toContain("  ✗ task: failed: no report (error)\n");
});

test("a result whose live line had no words after the tool's name is replayed and shown the same, not with its text's first line", () => {
  const text = "first line of what the model read\nsecond line";
  for (const summary of ["", "42 lines"]) {
    const event = { type: "tool-result", id: "k", tool: "grep", summary, output: text } as const;
    const live = renderEvent(event, plainTheme, callContext("pattern", "needle"));
    // The history as the turn saves it: the result's note from the event that ended the call.
    const saved = withResultNotes(oneCall("grep", { pattern: "needle" }, { type: "text", value: text }), new Map([["k", resultNote(event)!]]));
    expect(renderTranscript(makeRecord({ messages: saved }), kinds)).toContain(`→ grep needle\n${live}\n`);
    const replayed = replayRows(transcriptItems(saved, (_tool, input) => (input as { pattern: string }).pattern), createTheme(false), 100).flatMap((r) => r.rows);
    expect(replayed).toContain(live);
    expect(replayed.join("\n")).not.toContain("first line of what");
  }
  expect(renderEvent({ type: "tool-result", id: "k", tool: "grep", summary: "", output: text }, plainTheme, callContext("pattern", "needle"))).toBe("  ✓ grep · needle");
});

test("show: an older session without summaries gets the live words worked out from the text (read_file's window, write_file, edit_file, bash)", () => {
  const show = (tool: string, input: unknown, value: string) => renderTranscript(makeRecord({ messages: oneCall(tool, input, { type: "text", value }) }), kinds);
  expect(show("read_file", { path: "big.ts" }, "     1\ta\n     2\tb\n\n[Showing lines 1-2 of 900 in big.ts. Call read_file with offset 3 to read more.]")).toContain("  ✓ read_file: 900 lines · big.ts\n");
  expect(show("read_file", { path: "e.ts" }, "e.ts is empty.")).toContain("  ✓ read_file: 0 lines · e.ts\n");
  expect(show("write_file", { path: "b.txt", content: "x\ny" }, "Created b.txt (2 lines).")).toContain("  ✓ write_file: created, 2 lines · b.txt\n");
  expect(show("edit_file", { path: "a.txt", oldString: "a", newString: "b" }, "Edited a.txt: replaced 1 occurrence (+1 -1 lines).")).toContain("  ✓ edit_file: +1 -1 · a.txt\n");
  expect(show("bash", { command: "sleep 99" }, "Command timed out after 2s; it was killed with every process it started.\n(no output)")).toContain("  ✗ bash: timed out after 2s · sleep 99\n");
  expect(show("web_fetch", { url: "https://x.dev" }, "page title\nbody")).toContain("  ✓ web_fetch: page title (2 lines)\n"); // a tool whose text does not say: first line and count
});

test("show: an older session's glob and grep results read in files and matches, as their live lines did, not as a line count", () => {
  const show = (tool: string, input: unknown, value: string) => renderTranscript(makeRecord({ messages: oneCall(tool, input, { type: "text", value }) }), kinds);
  expect(show("glob", { pattern: "*.ts" }, "src/a.ts\nsrc/b.ts\nc.ts")).toContain("  ✓ glob: 3 files · *.ts\n");
  expect(show("glob", { pattern: "*.md" }, "README.md")).toContain("  ✓ glob: 1 file · *.md\n");
  expect(show("glob", { pattern: "*.rs" }, 'No files match "*.rs" in the working directory. Patterns match from path down, so "*" stays in one folder; try "**/*.rs".')).toContain("  ✓ glob: no files · *.rs\n");
  const many = Array.from({ length: 1000 }, (_, i) => `f${i}.ts`).join("\n") + "\n\n[Showing the 1000 most recently modified of 1200 matching files. Narrow the pattern or path to see the others.]";
  expect(show("glob", { pattern: "**/*.ts" }, many)).toContain("  ✓ glob: 1200 files · **/*.ts\n");
  expect(show("grep", { pattern: "page" }, "src/a.ts:3: const page = 1;\nsrc/a.ts:9: page++;\nb.ts:1: // page")).toContain("  ✓ grep: 3 matches in 2 files · page\n");
  expect(show("grep", { pattern: "zzz" }, 'No matches for "zzz" in the working directory.')).toContain("  ✓ grep: no matches · zzz\n");
  expect(show("grep", { pattern: "x", path: "a.bin" }, "a.bin is a binary file; grep only searches text.")).toContain("  ✓ grep: binary file · x\n");
  const stopped = Array.from({ length: 250 }, (_, i) => `src/f${i % 7}.ts:${i + 1}: x`).join("\n") + "\n\n[Stopped at 250 matching lines; there are more. Narrow the pattern, path or include to see the rest.]";
  expect(show("grep", { pattern: "x" }, stopped)).toContain("  ✓ grep: over 250 matches in 7 files · x\n");
  // The live words, for the same results: what the tools say (lib/tools/glob.ts, grep.ts).
  expect(show("glob", { pattern: "*.ts" }, "a.ts\nb.ts")).not.toContain("lines");
});

test("show: errors and denials read as they did live", () => {
  const missing = oneCall("read_file", { path: "gone.txt" }, { type: "error-text", value: "read_file: gone.txt does not exist. Use glob or list_dir to find the file." });
  expect(renderTranscript(makeRecord({ messages: missing }), kinds)).toContain("  ✗ read_file: no such file gone.txt\n");
  const denied = oneCall("write_file", { path: "h.txt", content: "x" }, { type: "text", value: "Not run: write_file needs the user's approval, and shiro is running headless." }, { shown: "headless without --yolo" });
  const text = renderTranscript(makeRecord({ messages: denied }), kinds);
  expect(text).toContain("→ write_file h.txt\n  ⊘ write_file h.txt: not run (headless without --yolo)\n");
  expect(exportSession(makeRecord({ messages: denied }), "md", kinds)).toContain("- **write_file** `h.txt`\n  - ⊘ `not run (headless without --yolo)`");
});

test("show: a prompt that got no answer says so (with the reason when kept); what was not a prompt (a compaction summary) is left alone", () => {
  const prompt = (content: string, failed?: string): ModelMessage => ({ role: "user", content, providerOptions: { shiro: { agent: "build", ...(failed ? { failed } : {}) } } });
  const text = renderTranscript(
    makeRecord({
      messages: [
        { role: "user", content: "Summary of the conversation so far: the tests were fixed." },
        prompt("hello"),
        prompt("again", "provider returned 401: Incorrect API key provided."),
        prompt("read it", "provider returned 500: down"),
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "list_dir", input: { path: "." } }] },
        { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "list_dir", output: { type: "text", value: "a.ts" } }] },
        prompt("last"),
      ],
    }),
  );
  // The prompts the user sent are numbered (shiro rewind --to <n>); the summary is not one.
  expect(text).toContain("\n› Summary of the conversation so far: the tests were fixed.\n\n[1] › hello\n  ✗ no answer\n\n[2] › again\n  ✗ no answer: provider returned 401: Incorrect API key provided.\n\n[3] › read it\n");
  // Something came before the failure: it is shown, then the failure.
  expect(text).toMatch(/  ✓ list_dir: .*\n  ✗ failed: provider returned 500: down\n\n\[4\] › last\n  ✗ no answer\n$/);
  const md = exportSession(makeRecord({ messages: [prompt("again", "provider returned 401: bad key")] }), "md");
  expect(md).toContain("_(no answer: provider returned 401: bad key)_");
});
