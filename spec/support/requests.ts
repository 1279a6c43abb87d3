/** Helpers that read what crossed the wire, whichever wire format it was. */

export const WIRES = [
  { wire: "responses", flags: [] as string[] },
  { wire: "chat", flags: ["--api", "chat"] },
] as const;

/** The system prompt of a captured request (top-level instructions, or system/developer messages). */
export function instructionsIn(body: any): string {
  if (typeof body.instructions === "string") return body.instructions;
  const input = Array.isArray(body.input) ? body.input : body.messages;
  return input
    .filter((m: any) => m.role === "system" || m.role === "developer")
    .map((m: any) => (typeof m.content === "string" ? m.content : m.content.map((c: any) => c.text ?? "").join("")))
    .join("\n");
}

/** Text of everything the model received as tool output in a request. */
export function toolOutputsIn(body: any): string[] {
  if (Array.isArray(body.input)) {
    return body.input.filter((item: any) => item.type === "function_call_output").map((item: any) => String(item.output));
  }
  return (body.messages ?? []).filter((m: any) => m.role === "tool").map((m: any) => String(m.content));
}

/** The text of a request's last item when it is a user message (chat message or Responses input item). */
export function lastUserTextIn(body: any): string | undefined {
  const items = Array.isArray(body.input) ? body.input : body.messages;
  const last = items?.at(-1);
  if (!last || last.role !== "user") return undefined;
  if (typeof last.content === "string") return last.content;
  return last.content.map((c: any) => c.text ?? "").join("");
}

/** The task list shiro sent at the end of a request (its last item), or undefined when it sent none. */
export function taskListIn(body: any): string | undefined {
  const text = lastUserTextIn(body);
  return text?.startsWith("[shiro] Your task list") ? text : undefined;
}
