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

test("broken JSON names the file, the line and column and what was expected there, and is never rewritten", async () => {
  const path = join(tempDir(), "config.json");
  writeFileSync(path, '{\n  "model": "x",\n');
  await expect(loadConfigFile(path)).rejects.toThrow(
    `config file ${path} is not valid JSON at line 3, column 1: the text ends where a field name in double quotes should be (an empty line). Fix it or move it aside.`,
  );
  writeFileSync(path, '{\n  "model": "x"\n  "api": "chat"\n}\n');
  await expect(loadConfigFile(path)).rejects.toThrow(`is not valid JSON at line 3, column 3: expected "," or "}" (the line: "api": "chat"). Fix it or move it aside.`);
  expect(await Bun.file(path).text()).toBe('{\n  "model": "x"\n  "api": "chat"\n}\n');
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

test("an unknown field is answered with the fields it looks like at that place, as shiro config set does", async () => {
  const path = join(tempDir(), "config.json");
  writeFileSync(path, JSON.stringify({ modle: "x" }));
  await expect(loadConfigFile(path)).rejects.toThrow(`config file ${path}: unknown field "modle". Did you mean model, models? See shiro help configuration.`);
  writeFileSync(path, JSON.stringify({ projects: { "/x": { permision: {} } } }));
  await expect(loadConfigFile(path)).rejects.toThrow(`config file ${path}: unknown field projects."/x".permision. Did you mean permission? See shiro help configuration.`);
  writeFileSync(path, JSON.stringify({ models: { "gpt-4.1": { contextWindw: 8000 } } }));
  await expect(loadConfigFile(path)).rejects.toThrow(`unknown field models."gpt-4.1".contextWindw. Did you mean contextWindow? See`);
  writeFileSync(path, JSON.stringify({ webFetch: { alowHosts: [] } }));
  await expect(loadConfigFile(path)).rejects.toThrow(`unknown field "webFetch.alowHosts". Did you mean allowHosts? See`);
  writeFileSync(path, JSON.stringify({ zzzzzzzz: 1 }));
  await expect(loadConfigFile(path)).rejects.toThrow(`config file ${path}: unknown field "zzzzzzzz". See shiro help configuration.`);
});

test("a section that is not an object says so, rather than calling the section unknown", async () => {
  const path = join(tempDir(), "config.json");
  writeFileSync(path, JSON.stringify({ webFetch: 5 }));
  await expect(loadConfigFile(path)).rejects.toThrow(`config file ${path}: field "webFetch" must be an object (got 5). See shiro help configuration.`);
});

test("a file holding a list, a string, a number or null is refused like any broken file, not read as empty", async () => {
  const path = join(tempDir(), "config.json");
  for (const [text, kind] of [["[]", "a list"], ['[{"model": "x"}]', "a list"], ['"gpt-5"', "a string"], ["42", "a number"], ["null", "null"], ["true", "true"]] as const) {
    writeFileSync(path, text);
    await expect(loadConfigFile(path)).rejects.toThrow(`config file ${path} must hold a JSON object such as {"model": "gpt-5-mini"}, not ${kind}. Fix it or move it aside.`);
    expect(await Bun.file(path).text()).toBe(text);
  }
});

test("a list where a section holds an object is refused with the section's path; a list where one belongs is fine", async () => {
  const path = join(tempDir(), "config.json");
  for (const [config, field] of [[{ webFetch: [] }, '"webFetch"'], [{ models: { "gpt-4.1": [] } }, 'models."gpt-4.1"'], [{ projects: { "/w": [] } }, 'projects."/w"'], [{ presets: [] }, '"presets"']] as const) {
    writeFileSync(path, JSON.stringify(config));
    await expect(loadConfigFile(path)).rejects.toThrow(`config file ${path}: field ${field} must be an object, not a list. See shiro help configuration.`);
  }
  const lists = { sandboxWritable: ["~/.ssh"], webFetch: { allowHosts: ["localhost:8123"] }, guard: { allow: ["git push --force-with-lease*"] }, mcpServers: { docs: { command: "x", args: ["--stdio"] } } };
  writeFileSync(path, JSON.stringify(lists));
  expect(await loadConfigFile(path)).toEqual(lists as never);
});

test("model limits: per model and per preset; a wrong value or an unknown preset names the field", async () => {
  const path = join(tempDir(), "config.json");
  const config = { models: { "qwen2.5-coder": { contextWindow: 32768, maxOutputTokens: 4096 } }, presets: { ollama: { models: { "qwen2.5-coder": { contextWindow: 8192 } } } } };
  writeFileSync(path, JSON.stringify(config));
  expect(await loadConfigFile(path)).toEqual(config);
  writeFileSync(path, JSON.stringify({ models: { m: { contextWindow: 512 } } }));
  await expect(loadConfigFile(path)).rejects.toThrow(/field "models.m.contextWindow" must be at least 1000/);
  writeFileSync(path, JSON.stringify({ models: { m: { context: 8192 } } }));
  await expect(loadConfigFile(path)).rejects.toThrow(/unknown field "models.m.context"/);
  writeFileSync(path, JSON.stringify({ presets: { olama: { models: {} } } }));
  await expect(loadConfigFile(path)).rejects.toThrow(/unknown field "presets.olama"/);
});
