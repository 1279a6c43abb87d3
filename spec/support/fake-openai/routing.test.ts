// Replies routed to the conversation they belong to, and held until several requests are in flight together.
import { afterEach, expect, test } from "bun:test";
import { startFakeServer, type FakeServer } from "../fake-openai.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ask = (s: FakeServer, system: string, user: string) =>
  fetch(`${s.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test" },
    body: JSON.stringify({ model: "gpt-test", messages: [{ role: "system", content: system }, { role: "user", content: user }] }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

const said = (answer: { body: any }) => answer.body.choices?.[0]?.message?.content;

test("a reply with `when` answers the request whose first user message or system prompt matches, whatever the order", async () => {
  server = await startFakeServer({
    replies: [
      { text: "for beta", when: { firstUser: "beta" } },
      { text: "for the reviewer", when: { instructions: "reviewer" } },
      { text: "for alpha", when: { firstUser: "alpha" } },
      { text: "for anyone" },
    ],
  });
  expect(said(await ask(server, "you explore", "task alpha"))).toBe("for alpha");
  expect(said(await ask(server, "you are a reviewer", "look"))).toBe("for the reviewer");
  expect(said(await ask(server, "you explore", "gamma"))).toBe("for anyone");
  expect(said(await ask(server, "you explore", "task beta"))).toBe("for beta");
  expect(server.errors).toEqual([]);
  expect(server.pending()).toBe(0);
});

test("a request no queued reply matches is rejected and consumes nothing", async () => {
  server = await startFakeServer({ replies: [{ text: "for alpha", when: { firstUser: "alpha" } }] });
  const refused = await ask(server, "s", "beta");
  expect(refused.status).toBe(500);
  expect(server.errors[0]).toContain("none of the 1 scripted replies left matches it");
  expect(server.pending()).toBe(1);
  expect(said(await ask(server, "s", "alpha"))).toBe("for alpha");
});

test("replies with `together` are held until that many requests wait at once, then all are answered", async () => {
  server = await startFakeServer({
    replies: [
      { text: "a", when: { firstUser: "a" }, together: 3 },
      { text: "b", when: { firstUser: "b" }, together: 3 },
      { text: "c", when: { firstUser: "c" }, together: 3 },
    ],
  });
  const s = server;
  const first = ask(s, "s", "a");
  const second = ask(s, "s", "b");
  // Two in flight: neither may be answered yet.
  const early = await Promise.race([first.then(() => "answered"), Bun.sleep(300).then(() => "held")]);
  expect(early).toBe("held");
  const answers = await Promise.all([first, second, ask(s, "s", "c")]);
  expect(answers.map(said)).toEqual(["a", "b", "c"]);
  expect(s.errors).toEqual([]);
});

test("a reply held for requests that never come is sent after the hold timeout, and the wait is recorded as an error", async () => {
  server = await startFakeServer({ replies: [{ text: "alone", together: 2 }], holdTimeoutMs: 200 });
  expect(said(await ask(server, "s", "only one"))).toBe("alone");
  expect(server.errors).toEqual([expect.stringContaining("held for 2 requests in flight together was still alone after 200ms (request #1)")]);
});
