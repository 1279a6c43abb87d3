import { expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { exportSession, renderTranscript } from "../../lib/sessions/transcript.ts";
import { subjectKindsOf } from "../../lib/sessions/transcript-items.ts";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import { toolsFor } from "../../lib/tools/index.ts";
import { parseSession } from "../../lib/sessions/serialize.ts";
import { makeRecord } from "./support/fixtures.ts";
import { INTERRUPTION_NOTE, interruptionMessage } from "../../lib/text/interruption.ts";

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
      { type: "tool-result", toolCallId: "c1", toolName: "read_file", output: { type: "text", value: "import { page } from '../src/page';\n\ntest('last page', () => {});\n" } },
      { type: "tool-result", toolCallId: "c2", toolName: "bash", output: { type: "error-text", value: "exit 1\n1 fail" } },
    ],
  },
  { role: "assistant", content: [{ type: "text", text: "The boundary is off by one: `<=` should be `<`." }] },
  { role: "user", content: [{ type: "text", text: "fix it" }] },
];

test("show: prompts, answers, one line per tool call with its subject, results cut to one line", () => {
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
      "  ✓ read_file: import { page } from '../src/page'; (3 lines)",
      "  ✗ bash: exit 1 (2 lines) · bun test spec/page.test.ts",
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
  expect(text).toContain("  ✓ read_file: import { page } from '../src/page'; (3 lines) · spec/page.test.ts\n  ✗ bash: exit 1 (2 lines) · bun test spec/page.test.ts\n");
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
      "  - ✓ `import { page } from '../src/page';` (3 lines)",
      "- **bash** `bun test spec/page.test.ts --bail`",
      "  - ✗ `exit 1` (2 lines)",
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
  expect(text).toContain(["→ bash touch a.txt", "→ bash touch b.txt && sleep 30", "  ✓ bash: Exit code 0 (2 lines) · touch a.txt", "  ■ bash: interrupted · touch b.txt && sleep 30"].join("\n"));
  expect(exportSession(makeRecord({ messages: killed }), "md")).toContain("- **bash** `touch a.txt`\n  - ✓ `Exit code 0` (2 lines)\n- **bash** `touch b.txt && sleep 30`\n  - ■ interrupted");
});

test("the header's token counts read as /cost writes them, with thousands separated", () => {
  const record = { ...makeRecord(), inputTokens: 1_234_567, outputTokens: 8_862 };
  expect(renderTranscript(record)).toContain("1,234,567 input and 8,862 output tokens");
});
