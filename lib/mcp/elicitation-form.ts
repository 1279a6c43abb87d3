/**
 * A server's question asked field by field, through whatever the asker can do: show lines, take
 * one key (accept, decline, cancel), read one line of text. The interactive loop supplies those
 * (its question line and its input); the order and the checks are here. Pure: no terminal.
 *
 * First the message and every field are shown, then `a` accept, `d` decline, `c`/esc cancel. On
 * accept each field is asked in turn: an empty line keeps the default (or leaves an optional
 * field out), a wrong answer is said in one line and asked again, and leaving the input (null)
 * cancels the whole question.
 */
import { describeField, parseFieldAnswer, type ElicitAnswer, type ElicitQuestion, type ElicitValue } from "./elicitation.ts";

export type FormIo = {
  /** Shows lines above the input (not sent to the model). */
  show(lines: string[]): void;
  /** One key's answer, lower-cased; "escape" when the user left. */
  askKey(text: string): Promise<string>;
  /** One line typed by the user; null when they left (esc, ctrl-c). */
  readLine(label: string): Promise<string | null>;
};

/** A server's words made safe for the screen: no escape sequences, no control characters but line breaks. */
function screenSafe(text: string): string {
  return Bun.stripANSI(text).replace(/\r\n?/g, "\n").replace(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/g, " ");
}

export async function askElicitation(question: ElicitQuestion, raw: FormIo): Promise<ElicitAnswer> {
  // Everything shown comes from the server (its message, field titles, options): cleaned first.
  const io: FormIo = { show: (lines) => raw.show(lines.map(screenSafe)), askKey: (text) => raw.askKey(screenSafe(text)), readLine: (label) => raw.readLine(screenSafe(label)) };
  io.show([`The MCP server "${question.server}" asks: ${question.message}`, ...question.fields.map((field) => `  ${describeField(field)}`)]);
  const key = await io.askKey(question.fields.length ? "Answer it? a accept · d decline · c cancel" : "a accept · d decline · c cancel");
  if (key === "d") return { action: "decline" };
  if (key !== "a" && key !== "y") return { action: "cancel" };
  const content: Record<string, ElicitValue> = {};
  for (const field of question.fields) {
    for (;;) {
      const line = await io.readLine(describeField(field));
      if (line === null) return { action: "cancel" };
      const parsed = parseFieldAnswer(field, line);
      if ("error" in parsed) {
        io.show([parsed.error]);
        continue;
      }
      if ("value" in parsed) content[field.name] = parsed.value;
      break;
    }
  }
  return { action: "accept", content };
}
