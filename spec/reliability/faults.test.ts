// Provider faults from the strict fake server, one wire per fault (alternating; the full run takes
// every fault over both wires). A fault before any output is retried; after output the turn ends
// with exit 1 and a one-line error; the session is saved and valid and the next `-c` works with
// zero refused requests. The hang cases use SHIRO_IDLE_TIMEOUT_MS (3 s here, 300 s by default).
import { expect, test } from "bun:test";
import { FAULT_CASES, runFaultCase } from "../support/reliability/faults.ts";
import { limiter } from "../support/reliability/support.ts";
import { WIRES } from "../support/requests.ts";

const limit = limiter(3);

FAULT_CASES.forEach((c, i) => {
  const wire = WIRES[i % 2]!;
  test.concurrent(`${c.name} over ${wire.wire}: ${c.expect === "retried" ? "retried, then success" : "exit 1, one-line error"}; the next -c works`, async () => {
    expect(await limit(() => runFaultCase(c, wire))).toEqual([]);
  }, 90_000);
});
