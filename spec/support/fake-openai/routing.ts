// Replies meant for one of several conversations running at once (subagents): a reply can name the request
// it answers (`when`), and can be held until a number of requests are waiting together (`together`).
import type { Reply, RequestMatch } from "./types.ts";

/** The system prompt of a request on either wire: top-level instructions, or its system/developer messages. */
export function instructionsOf(body: any): string {
  const own = typeof body?.instructions === "string" ? body.instructions : "";
  const list = Array.isArray(body?.input) ? body.input : Array.isArray(body?.messages) ? body.messages : [];
  const system = list.filter((m: any) => m?.role === "system" || m?.role === "developer").map(textOf);
  return [own, ...system].filter(Boolean).join("\n");
}

/** The text of the first user message of a request on either wire ("" when there is none). */
export function firstUserOf(body: any): string {
  if (typeof body?.input === "string") return body.input;
  const list = Array.isArray(body?.input) ? body.input : Array.isArray(body?.messages) ? body.messages : [];
  const first = list.find((m: any) => m?.role === "user");
  return first ? textOf(first) : "";
}

function textOf(message: any): string {
  if (typeof message.content === "string") return message.content;
  if (!Array.isArray(message.content)) return "";
  return message.content.map((part: any) => (typeof part?.text === "string" ? part.text : "")).join("");
}

/** True when the reply may answer this request: it names none, or every substring it names is there. */
export function replyMatches(reply: Reply, body: any): boolean {
  const when: RequestMatch | undefined = reply.when;
  if (!when) return true;
  if (when.instructions !== undefined && !instructionsOf(body).includes(when.instructions)) return false;
  if (when.firstUser !== undefined && !firstUserOf(body).includes(when.firstUser)) return false;
  return true;
}

/** The index of the first queued reply that may answer this request, or -1. */
export function pickReply(queue: readonly Reply[], body: any): number {
  return queue.findIndex((reply) => replyMatches(reply, body));
}

/**
 * Holds answers until enough requests wait at once. `hold(n)` resolves once `n` held requests
 * (this one included) are waiting together: true then, or false after `timeoutMs` without that.
 */
export function createGathering(timeoutMs: number) {
  const waiting: { n: number; release: (together: boolean) => void }[] = [];
  return {
    hold(n: number): Promise<boolean> {
      return new Promise<boolean>((resolve) => {
        const entry = {
          n,
          release: (together: boolean) => {
            clearTimeout(timer);
            resolve(together);
          },
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(entry), 1);
          entry.release(false);
        }, timeoutMs);
        waiting.push(entry);
        const count = waiting.length;
        for (const held of waiting.filter((w) => w.n <= count)) {
          waiting.splice(waiting.indexOf(held), 1);
          held.release(true);
        }
      });
    },
    /** How many requests are held now. */
    waiting: () => waiting.length,
  };
}
