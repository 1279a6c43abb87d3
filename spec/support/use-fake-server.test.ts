// useFakeServer's strictness is what every end-to-end spec leans on, so it is checked from the
// outside: a probe spec file runs in a child `bun test`, and its per-test verdicts are read back.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./cli.ts";

const PROBE = (dir: string) => `
import { test } from "bun:test";
import { post } from ${JSON.stringify(join(dir, "fake-openai", "testing.ts"))};
import { useFakeServer } from ${JSON.stringify(join(dir, "use-fake-server.ts"))};
const serve = useFakeServer();
const ask = (s: any) => post(s, "/responses", { model: "gpt-test", stream: true, input: "hi" });

test("probe: every reply requested, nothing rejected", async () => { await ask(await serve({ text: "hi" })); });
test("probe: a reply left over", async () => { await serve({ text: "never asked" }); });
test("probe: a request rejected", async () => { await post(await serve({ text: "hi" }), "/responses", { stream: true, input: "no model" }); });
test("probe: leftovers allowed with a reason", async () => { await serve({ text: "x" }); serve.allowLeftovers("on purpose"); });
test("probe: rejections allowed with a reason", async () => { const s = await serve(); serve.allowRejections("on purpose"); await ask(s); });
test("probe: the allowance ended with its test", async () => { await serve({ text: "x" }); });
test("probe: a second server is checked too", async () => { await ask(await serve({ text: "a" })); await serve({ text: "b" }); });
test("probe: an allowance without a reason is refused", async () => { serve.allowLeftovers(" "); });
`;

test("useFakeServer fails a test that left replies or had requests rejected, unless it said why", async () => {
  const dir = tempDir();
  const probe = join(dir, "probe.test.ts");
  writeFileSync(probe, PROBE(import.meta.dir));
  const child = Bun.spawnSync([process.execPath, "test", probe], { cwd: dir, env: process.env, stdout: "pipe", stderr: "pipe" });
  const out = child.stdout.toString() + child.stderr.toString();
  const verdicts = Object.fromEntries([...out.matchAll(/^\((pass|fail)\) probe: (.+?) \[/gm)].map((m) => [m[2], m[1]]));
  expect(verdicts).toEqual({
    "every reply requested, nothing rejected": "pass",
    "a reply left over": "fail",
    "a request rejected": "fail",
    "leftovers allowed with a reason": "pass",
    "rejections allowed with a reason": "pass",
    "the allowance ended with its test": "fail",
    "a second server is checked too": "fail",
    "an allowance without a reason is refused": "fail",
  });
  expect(out).toContain("1 scripted reply never requested (serve.allowLeftovers(reason) if the test means it)");
  expect(out).toMatch(/rejected 1 request\(s\): .*model.* \(serve\.allowRejections\(reason\) if the test means it\)/);
  expect(out).toContain("fake server #2 has 1 scripted reply never requested");
  expect(child.exitCode).toBe(1);
});
