import { afterEach } from "bun:test";
import { startFakeServer, type FakeServer, type Reply, type StartOptions } from "./fake-openai.ts";

/** Everything startFakeServer takes but the replies: vendor mode, models with context windows, quirks. */
export type ServeOptions = Omit<StartOptions, "replies">;

/** `const s = await serve(...replies)`: a fresh strict fake server for this test. */
export type Serve = ((...replies: Reply[]) => Promise<FakeServer>) & {
  /** The same, for a server started with options: `await serve.with({ vendor: "mistral" })(...replies)`.
   *  Its rejections and leftovers are checked like any other; its `overflows` are not (they are expected). */
  with(options: ServeOptions): (...replies: Reply[]) => Promise<FakeServer>;
  /** This test means the server to reject requests (a forgotten item, a broken history); `reason` says why. */
  allowRejections(reason: string): void;
  /** This test means to leave scripted replies unrequested (a turn cut short on purpose); `reason` says why. */
  allowLeftovers(reason: string): void;
};

/**
 * Per-test strict fake server: `const serve = useFakeServer();` at the top of a file or describe,
 * then `const s = await serve(...replies)` in a test. After each test every server it started is
 * checked, then closed: a request the fake rejected (`errors`), or a scripted reply nobody asked
 * for (`pending()`), fails the test, because a CLI that retried around a rejection, or stopped
 * early, otherwise passes every other assertion. A test that wants either says so, with a reason,
 * through `serve.allowRejections` / `serve.allowLeftovers`; the allowance ends with the test.
 */
export function useFakeServer(): Serve {
  let servers: FakeServer[] = [];
  let rejections: string | undefined;
  let leftovers: string | undefined;
  afterEach(async () => {
    const started = servers;
    const allowed = { rejections, leftovers };
    servers = [];
    rejections = leftovers = undefined;
    await Promise.all(started.map((s) => s.close()));
    const problems: string[] = [];
    started.forEach((s, i) => {
      const which = started.length > 1 ? `fake server #${i + 1}` : "the fake server";
      if (s.errors.length > 0 && !allowed.rejections)
        problems.push(`${which} rejected ${s.errors.length} request(s): ${s.errors.join(" | ")} (serve.allowRejections(reason) if the test means it)`);
      if (s.pending() > 0 && !allowed.leftovers)
        problems.push(`${which} has ${s.pending()} scripted repl${s.pending() === 1 ? "y" : "ies"} never requested (serve.allowLeftovers(reason) if the test means it)`);
    });
    if (problems.length > 0) throw new Error(`strict fake server: ${problems.join("; ")}`);
  });
  const start = async (options: ServeOptions, replies: Reply[]) => {
    const server = await startFakeServer({ ...options, replies });
    servers.push(server);
    return server;
  };
  const serve = (...replies: Reply[]) => start({}, replies);
  const reasonOf = (what: string, reason: string) => {
    if (reason.trim() === "") throw new Error(`serve.${what} needs a reason`);
    return reason;
  };
  return Object.assign(serve, {
    with: (options: ServeOptions) => (...replies: Reply[]) => start(options, replies),
    allowRejections: (reason: string) => void (rejections = reasonOf("allowRejections", reason)),
    allowLeftovers: (reason: string) => void (leftovers = reasonOf("allowLeftovers", reason)),
  });
}
