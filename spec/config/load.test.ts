import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfigFile } from "../../lib/config/load.ts";
import { tempDir } from "../support/cli.ts";

test("a missing config file is an empty config", async () => {
  expect(await loadConfigFile(join(tempDir(), "config.json"))).toEqual({});
});

test("a valid config file is parsed", async () => {
  const path = join(tempDir(), "config.json");
  writeFileSync(path, JSON.stringify({ model: "m", api: "chat", maxSteps: 10 }));
  expect(await loadConfigFile(path)).toEqual({ model: "m", api: "chat", maxSteps: 10 });
});

test("broken JSON names the file and is never rewritten", async () => {
  const path = join(tempDir(), "config.json");
  writeFileSync(path, "{ model: ");
  await expect(loadConfigFile(path)).rejects.toThrow(new RegExp(`${path} is not valid JSON`));
  expect(await Bun.file(path).text()).toBe("{ model: ");
});

test("a wrong field names the field and what is wrong", async () => {
  const path = join(tempDir(), "config.json");
  writeFileSync(path, JSON.stringify({ api: "grpc" }));
  await expect(loadConfigFile(path)).rejects.toThrow(/field "api" must be "responses" or "chat"/);
});

test("an unknown field (a typo) is reported, not ignored", async () => {
  const path = join(tempDir(), "config.json");
  writeFileSync(path, JSON.stringify({ modle: "x" }));
  await expect(loadConfigFile(path)).rejects.toThrow(/unknown field "modle"/);
});
