import { afterEach } from "bun:test";
import { startFakeServer, type FakeServer, type Reply } from "./fake-openai.ts";

/**
 * Per-test fake server: `const serve = useFakeServer();` then `const s = await serve(...replies)`
 * in a test. The server is closed after each test.
 */
export function useFakeServer(): (...replies: Reply[]) => Promise<FakeServer> {
  let server: FakeServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (...replies) => {
    await server?.close();
    server = await startFakeServer({ replies });
    return server;
  };
}
