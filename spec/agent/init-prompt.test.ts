import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { initPrompt } from "../../lib/agent/init-prompt.ts";
import { tempDir } from "../support/cli.ts";

describe("/init's prompt", () => {
  test("without AGENTS.md it asks for one to be created, with the real commands, layout, conventions and surprises", () => {
    const root = tempDir();
    const prompt = initPrompt({ root, cwd: root });
    expect(prompt).toContain("There is no AGENTS.md yet: create it with write_file.");
    for (const part of ["Commands:", "Layout:", "Conventions:", "Surprises:"]) expect(prompt).toContain(part);
    expect(prompt).not.toContain("{{");
  });

  test("with one it asks for it to be improved; the path is relative to where shiro runs; CLAUDE.md is named", () => {
    const root = tempDir();
    mkdirSync(join(root, "pkg"));
    writeFileSync(join(root, "AGENTS.md"), "# old\n");
    writeFileSync(join(root, "CLAUDE.md"), "# claude\n");
    const prompt = initPrompt({ root, cwd: join(root, "pkg") });
    expect(prompt).toContain("../AGENTS.md already exists. Read it first");
    expect(prompt).toContain("There is a CLAUDE.md at the root too");
  });
});
