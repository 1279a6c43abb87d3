// Standalone mode for demos and benchmarks: `bun spec/support/fake-openai.ts --script replies.json [--vendor <mode>]`.
// Prints exactly one stdout line, FAKE_OPENAI_URL=…, serves the script, and exits once every reply is consumed
// and nothing happened for 2 s, or on SIGTERM/SIGINT. Protocol violations go to stderr and make the exit code 1.
import { createFakeServer } from "./server.ts";
import type { Reply, VendorMode } from "./types.ts";
import { VENDORS } from "./vendors/index.ts";

const IDLE_EXIT_MS = 2000;

export async function runCli(argv: string[]): Promise<void> {
  const at = argv.indexOf("--script");
  const file = at >= 0 ? argv[at + 1] : undefined;
  if (!file) {
    console.error("usage: bun spec/support/fake-openai.ts --script <replies.json> [--vendor <mode>]");
    process.exit(2);
  }
  const v = argv.indexOf("--vendor");
  const vendor = v >= 0 ? argv[v + 1] : undefined;
  if (vendor !== undefined && !(vendor in VENDORS)) {
    console.error(`fake-openai: unknown vendor "${vendor}" (one of ${Object.keys(VENDORS).join(", ")})`);
    process.exit(2);
  }
  const replies: unknown = await Bun.file(file).json();
  if (!Array.isArray(replies)) {
    console.error(`fake-openai: ${file} must hold a JSON array of replies`);
    process.exit(2);
  }

  const { server, stats } = await createFakeServer({
    replies: replies as Reply[],
    vendor: vendor as VendorMode | undefined,
    onError: (message) => console.error(`fake-openai: rejected: ${message}`),
  });
  console.log(`FAKE_OPENAI_URL=${server.url}`);

  const finish = async () => {
    clearInterval(timer);
    await server.close();
    process.exit(server.errors.length > 0 ? 1 : 0);
  };
  const timer = setInterval(() => {
    const idle = stats.inflight === 0 && Date.now() - stats.lastActivity >= IDLE_EXIT_MS;
    if (server.pending() === 0 && idle) void finish();
  }, 100);
  process.on("SIGTERM", () => void finish());
  process.on("SIGINT", () => void finish());
}
