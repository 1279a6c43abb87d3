import { expect, test } from "bun:test";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { updateConfigFile } from "../../lib/config/update-file.ts";
import { tempDir } from "../support/cli.ts";

test("a change is written back with the user's other settings kept and no temp file left", async () => {
  const dir = tempDir();
  const path = join(dir, "config.json");
  writeFileSync(path, JSON.stringify({ model: "m", maxSteps: 10 }));
  await updateConfigFile(path, (config) => ({ ...config, thinking: "high" }));
  expect(JSON.parse(await Bun.file(path).text())).toEqual({ model: "m", maxSteps: 10, thinking: "high" });
  expect(readdirSync(dir)).toEqual(["config.json"]);
});

test("a missing file is created", async () => {
  const path = join(tempDir(), "sub", "config.json");
  await updateConfigFile(path, () => ({ model: "x" }));
  expect(JSON.parse(await Bun.file(path).text())).toEqual({ model: "x" });
});

test("a broken file is reported and left as it was", async () => {
  const path = join(tempDir(), "config.json");
  writeFileSync(path, "{ model: ");
  await expect(updateConfigFile(path, (c) => ({ ...c, model: "y" }))).rejects.toThrow(/not valid JSON/);
  expect(await Bun.file(path).text()).toBe("{ model: ");
});

test("a change the schema refuses is not written", async () => {
  const path = join(tempDir(), "config.json");
  writeFileSync(path, JSON.stringify({ model: "m" }));
  await expect(updateConfigFile(path, (c) => ({ ...c, maxSteps: 0 }))).rejects.toThrow(/field "maxSteps" must be at least 1.*unchanged/);
  expect(JSON.parse(await Bun.file(path).text())).toEqual({ model: "m" });
});

test("a list given for a section that holds an object is not written (shiro would refuse to load it)", async () => {
  const path = join(tempDir(), "config.json");
  writeFileSync(path, JSON.stringify({ model: "m" }));
  await expect(updateConfigFile(path, (c) => ({ ...c, webFetch: [] as never }))).rejects.toThrow(`not saved: field "webFetch" must be an object, not a list. ${path} is unchanged.`);
  expect(JSON.parse(await Bun.file(path).text())).toEqual({ model: "m" });
});

test("a file holding a list is reported and left as it was", async () => {
  const path = join(tempDir(), "config.json");
  writeFileSync(path, "[]");
  await expect(updateConfigFile(path, (c) => ({ ...c, model: "y" }))).rejects.toThrow("must hold a JSON object");
  expect(await Bun.file(path).text()).toBe("[]");
});

test("a refused change names the field by the same path the loader uses, a model id with dots in quotes", async () => {
  const path = join(tempDir(), "config.json");
  await expect(updateConfigFile(path, (c) => ({ ...c, models: { "gpt-4.1": { contextWindow: 5 } } }))).rejects.toThrow(
    `not saved: field models."gpt-4.1".contextWindow must be at least 1000. ${path} is unchanged.`,
  );
});
