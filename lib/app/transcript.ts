import type { ModelMessage } from "ai";
import type { AgentEvent } from "../events.ts";
import { outcomeOfSummary, renderEvent } from "../render.ts";
import { existsSync } from "node:fs";
import { appendTranscript, capText, capValue, readTranscript, TRANSCRIPT_TEXT_CAP, transcriptPath, type TranscriptRecord } from "../sessions/transcript-log.ts";
import { BASH_EXITED } from "../tools/bash.ts";
import { INTERRUPTED_RESULT } from "../prune/repair.ts";

/** What the transcript (and /last) says of a call the turn cut short that had printed nothing, instead of the model's note. */
export const CUT_SHORT = "It was stopped before it finished, with no output; what it did before that is unknown.";

/** The first mark of a transcript begun for a session that already had a conversation (saved before transcripts were kept). */
export const FROM_HISTORY = "the saved conversation (outputs as the model got them)";

export type TranscriptDeps = {
  home: string;
  /** The session open now (/clear, /resume and /fork change it). */
  id: () => string;
  /** Its conversation, to begin a transcript for a session that has none yet. */
  history: () => readonly ModelMessage[];
  /** The file could not be written: said once, never thrown into a turn. */
  onError?: (message: string) => void;
};

/**
 * Keeps the session's transcript (lib/sessions/transcript-log.ts) from what the loop sees: prompts,
 * the turn's events (answers and reasoning whole, each call's input, its whole streamed output),
 * `!cmd` runs and marks. Reads it back for the transcript view and /last.
 */
export function createTranscript(deps: TranscriptDeps) {
  let answer = "";
  let reasoning = "";
  /** Output streamed by calls still running, by call id (capped as it grows). */
  const streamed = new Map<string, string>();
  /** Sessions whose transcript this process has begun or found. */
  const begun = new Set<string>();
  let failed = false;

  const write = (records: TranscriptRecord[]) => {
    const id = deps.id();
    try {
      if (!begun.has(id)) {
        begun.add(id);
        const history = deps.history();
        if (!existsSync(transcriptPath(deps.home, id)) && history.length > 0) records = [{ type: "mark", text: FROM_HISTORY }, ...historyRecords(history), ...records];
      }
      appendTranscript(deps.home, id, records);
    } catch (error) {
      if (!failed) deps.onError?.(`its transcript (full outputs, for the transcript view) could not be written: ${error instanceof Error ? error.message : String(error)}`);
      failed = true;
    }
  };
  /** The answer and reasoning streaming now, as records (not yet written: they are written whole). */
  const pending = (): TranscriptRecord[] => [
    ...(reasoning.trim() ? [{ type: "reasoning" as const, text: capText(reasoning) }] : []),
    ...(answer.trim() ? [{ type: "answer" as const, text: capText(answer) }] : []),
  ];
  const settle = () => {
    const records = pending();
    answer = reasoning = "";
    if (records.length > 0) write(records);
  };

  return {
    /** A prompt the user sent, as typed. */
    prompt(text: string): void {
      settle();
      write([{ type: "prompt", text: capText(text), at: new Date().toISOString() }]);
    },
    /** An event of the turn. */
    event(event: AgentEvent): void {
      if (event.type === "text") return void (answer += event.text);
      if (event.type === "reasoning") {
        if (answer) settle(); // reasoning after an answer's text is a new block
        return void (reasoning += event.text);
      }
      if (event.type === "tool-output") {
        const sofar = (streamed.get(event.id) ?? "") + event.chunk;
        streamed.set(event.id, sofar.length > TRANSCRIPT_TEXT_CAP * 2 ? capText(sofar) : sofar);
        return;
      }
      if (event.type === "step" || event.type === "tool-start" || event.type === "subagent-start" || event.type === "subagent-step") return;
      settle();
      switch (event.type) {
        case "tool-call":
          return write([{ type: "call", id: event.id, tool: event.tool, ...(event.subject ? { subject: event.subject } : {}), input: capValue(event.input) }]);
        case "tool-result": {
          const output = streamed.get(event.id);
          streamed.delete(event.id);
          const exit = event.exitCode !== undefined ? { exitCode: event.exitCode } : {};
          const given = event.output === INTERRUPTED_RESULT ? CUT_SHORT : event.output;
          return write([{ type: "result", id: event.id, tool: event.tool, ...subjectOf(event), summary: event.summary, outcome: outcomeOfSummary(event.summary), output: capText(output ?? given), ...exit }]);
        }
        case "tool-error": {
          const output = streamed.get(event.id);
          streamed.delete(event.id);
          return write([{ type: "result", id: event.id, tool: event.tool, ...subjectOf(event), summary: "error", outcome: "error", output: capText(output ? `${output}\n${event.error}` : event.error) }]);
        }
        case "tool-denied":
          streamed.delete(event.id);
          return write([{ type: "result", id: event.id, tool: event.tool, ...subjectOf(event), summary: "not run", outcome: "denied", output: capText(event.reason) }]);
        case "done":
          streamed.clear();
          if (event.status === "interrupted") write([{ type: "notice", text: "interrupted" }]);
          return;
        default: {
          const line = renderEvent(event);
          if (line) write([{ type: "notice", text: line.trim() }]);
        }
      }
    },
    /** A `!cmd` run: its whole output as printed and the tool's text (which carries the exit code). */
    shell(command: string, printed: string, toolOutput: string): void {
      settle();
      write([{ type: "shell", command, output: capText(printed || stripExitLine(toolOutput)), exitCode: exitCodeOf(toolOutput), at: new Date().toISOString() }]);
    },
    /** Where the conversation changed course (a rewind, an undo, a compaction). */
    mark(text: string): void {
      settle();
      write([{ type: "mark", text }]);
    },
    /** The transcript so far (an answer streaming now included): the file, or (none yet) the conversation as the session keeps it. */
    records(): { records: TranscriptRecord[]; skipped: number; dropped: number } {
      const read = readTranscript(deps.home, deps.id());
      if (read.records.length > 0) return { ...read, records: [...read.records, ...pending()] };
      const history = deps.history();
      const saved: TranscriptRecord[] = history.length > 0 ? [{ type: "mark", text: FROM_HISTORY }, ...historyRecords(history)] : [];
      return { records: [...saved, ...pending()], skipped: read.skipped, dropped: read.dropped };
    },
  };
}

export type SessionTranscript = ReturnType<typeof createTranscript>;

const subjectOf = (event: { subject?: string }) => (event.subject ? { subject: event.subject } : {});

/** bash's exit code from its text for the model (`Exit code 1` first), or null when it did not exit on its own. */
export function exitCodeOf(toolOutput: string): number | null {
  const first = toolOutput.split("\n", 1)[0] ?? "";
  if (!first.startsWith(BASH_EXITED)) return null;
  const code = Number.parseInt(first.slice(BASH_EXITED.length), 10);
  return Number.isInteger(code) ? code : null;
}

function stripExitLine(toolOutput: string): string {
  return toolOutput.startsWith(BASH_EXITED) ? toolOutput.slice(toolOutput.indexOf("\n") + 1) : toolOutput;
}

/** A conversation as transcript records: what the session file keeps (the model's copies of outputs). */
export function historyRecords(history: readonly ModelMessage[]): TranscriptRecord[] {
  const records: TranscriptRecord[] = [];
  const calls = new Map<string, string>();
  for (const message of history) {
    const parts = typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content as readonly { type: string }[]);
    for (const part of parts) {
      const p = part as Record<string, unknown> & { type: string };
      if (message.role === "user" && p.type === "text") records.push({ type: "prompt", text: String(p.text), at: "" });
      else if (message.role === "assistant" && p.type === "text" && String(p.text).trim()) records.push({ type: "answer", text: String(p.text) });
      else if (message.role === "assistant" && p.type === "reasoning" && String(p.text).trim()) records.push({ type: "reasoning", text: String(p.text) });
      else if (p.type === "tool-call") {
        calls.set(String(p.toolCallId), String(p.toolName));
        records.push({ type: "call", id: String(p.toolCallId), tool: String(p.toolName), input: capValue(p.input) });
      } else if (p.type === "tool-result") {
        const text = outputText(p.output);
        records.push({ type: "result", id: String(p.toolCallId), tool: String(p.toolName ?? calls.get(String(p.toolCallId)) ?? "tool"), summary: "", outcome: "ok", output: capText(text) });
      }
    }
  }
  return records;
}

/** A tool result's output part as text. */
function outputText(output: unknown): string {
  if (!output || typeof output !== "object") return String(output ?? "");
  const o = output as { type?: string; value?: unknown };
  if (typeof o.value === "string") return o.value;
  return JSON.stringify(o.value ?? output, null, 2);
}
