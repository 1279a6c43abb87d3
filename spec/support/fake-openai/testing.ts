// Small helpers for specs that talk to the fake directly (raw fetch) instead of through the AI SDK.
import type { FakeServer } from "./types.ts";

export type SseEvent = { event?: string; data: any };

/** Parse an SSE body into events. `data` is parsed JSON, or the raw string (e.g. "[DONE]") when not JSON. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split("\n\n")) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
    }
    if (data.length === 0) continue;
    const joined = data.join("\n");
    let parsed: any = joined;
    try {
      parsed = JSON.parse(joined);
    } catch {}
    events.push({ event, data: parsed });
  }
  return events;
}

/** POST a JSON body to `server.url + path` and return status, parsed body (JSON or SSE events) and headers. */
export async function post(server: FakeServer, path: string, body: unknown) {
  const res = await fetch(server.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const isSse = (res.headers.get("content-type") ?? "").includes("text/event-stream");
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: isSse ? undefined : (JSON.parse(text) as any),
    events: isSse ? parseSse(text) : [],
  };
}

/** The output items of a streamed Responses turn, from its output_item.done events. */
export function outputItems(events: SseEvent[]): any[] {
  return events.filter((e) => e.data?.type === "response.output_item.done").map((e) => e.data.item);
}
