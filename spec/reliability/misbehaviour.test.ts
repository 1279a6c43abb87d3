// Model misbehaviour, one wire per case (alternating; the full run takes each over both): error
// results or limits the model can read, never a crash, and a history the strict server accepts
// in the run and in the `-c` after it.
import { expect, test } from "bun:test";
import { MISBEHAVIOUR_CASES, runMisbehaviourCase } from "../support/reliability/misbehaviour.ts";
import { limiter } from "../support/reliability/support.ts";
import { WIRES } from "../support/requests.ts";

const limit = limiter(3);

MISBEHAVIOUR_CASES.forEach((c, i) => {
  const wire = WIRES[i % 2]!;
  test.concurrent(`${c.name} over ${wire.wire}: exit ${c.exit}, no crash, the next -c is accepted`, async () => {
    expect(await limit(() => runMisbehaviourCase(c, wire))).toEqual([]);
  }, 90_000);
});
