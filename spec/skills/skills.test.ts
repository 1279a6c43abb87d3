// Skills: where they are found, which wins, what a broken one does, and what the skill tool returns.
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { parseFrontMatter } from "../../lib/text/front-matter.ts";
import { loadSkills, skillSources } from "../../lib/skills/skills.ts";
import { createSkillTool } from "../../lib/tools/skill.ts";
import { tempDir } from "../support/cli.ts";
import { errorOf, runTool } from "../tools/fixture.ts";

const write = (path: string, text: string) => (mkdirSync(dirname(path), { recursive: true }), writeFileSync(path, text));
const skillMd = (name: string, description: string, body = "Do the thing.") => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

describe("front matter", () => {
  test("plain, quoted and block values; the body after the closing line", () => {
    const parsed = parseFrontMatter(`---\nname: pdf\ndescription: "Fill PDF forms: fields, #hash"\nnote: 'it''s'\nlong: >\n  one\n  two\ntags:\n  - a\n  - b\n---\n# Steps\n`);
    expect(parsed).toEqual({ ok: true, fields: { name: "pdf", description: "Fill PDF forms: fields, #hash", note: "it's", long: "one two", tags: "- a\n- b" }, body: "# Steps\n" });
  });
  test("no front matter: all body; an unclosed one or a stray line is an error", () => {
    expect(parseFrontMatter("just text")).toEqual({ ok: true, fields: {}, body: "just text" });
    expect(parseFrontMatter("---\nname: x\n")).toEqual({ ok: false, why: "the front matter has no closing --- line" });
    expect(parseFrontMatter("---\nname x\n---\n")).toMatchObject({ ok: false, why: expect.stringContaining('line 2 is not "key: value"') });
  });
});

describe("loadSkills", () => {
  test("every folder is read; a later source wins by name; a broken SKILL.md is one problem line", () => {
    const home = tempDir();
    const root = tempDir();
    const shiroHome = join(home, ".shiro-neko");
    write(join(home, ".claude/skills/deploy/SKILL.md"), skillMd("deploy", "home claude deploy"));
    write(join(home, ".agents/skills/lint/SKILL.md"), skillMd("lint", "home agents lint"));
    write(join(shiroHome, "skills/deploy/SKILL.md"), skillMd("deploy", "shiro home deploy"));
    write(join(root, ".claude/skills/test/SKILL.md"), skillMd("test", "project claude test"));
    write(join(root, ".agents/skills/lint/SKILL.md"), skillMd("lint", "project agents lint"));
    write(join(root, ".shiro/skills/deploy/SKILL.md"), skillMd("deploy", "project shiro deploy"));
    write(join(root, ".shiro/skills/broken/SKILL.md"), "---\ndescription: no name here\n---\nbody");
    write(join(root, ".shiro/skills/unclosed/SKILL.md"), "---\nname: x\n");
    write(join(root, ".shiro/skills/not-a-skill/README.md"), "no SKILL.md");
    const set = loadSkills(skillSources({ root, shiroHome, home }));
    expect(set.skills.map((s) => [s.name, s.description, s.source])).toEqual([
      ["deploy", "project shiro deploy", ".shiro/skills (project)"],
      ["lint", "project agents lint", ".agents/skills (project)"],
      ["test", "project claude test", ".claude/skills (project)"],
    ]);
    expect(set.shadowed.map(({ skill, by }) => `${skill.source} < ${by.source}`)).toEqual([
      "~/.claude/skills < $SHIRO_HOME/skills",
      "~/.agents/skills < .agents/skills (project)",
      "$SHIRO_HOME/skills < .shiro/skills (project)",
    ]);
    expect(set.problems).toEqual([
      'skill .shiro/skills/broken/SKILL.md (project) is not used: its front matter has no "name" (start the file with ---, name: …, description: …, ---)',
      "skill .shiro/skills/unclosed/SKILL.md (project) is not used: the front matter has no closing --- line",
    ]);
  });
});

describe("the skill tool", () => {
  test("returns the instructions and lists the files: workspace paths inside the workspace", async () => {
    const root = tempDir();
    write(join(root, ".shiro/skills/release/SKILL.md"), skillMd("release", "cut a release", "1. Run scripts/bump.sh\n2. Read notes.md"));
    write(join(root, ".shiro/skills/release/scripts/bump.sh"), "echo bump\n");
    write(join(root, ".shiro/skills/release/notes.md"), "notes\n");
    const { skills } = loadSkills(skillSources({ root, shiroHome: tempDir(), home: tempDir() }));
    const tool = createSkillTool(skills);
    const ctx = { root, cwd: root, signal: new AbortController().signal };
    const result = await runTool(tool, { name: "release" }, ctx);
    expect(result.output).toBe(
      "Skill release (.shiro/skills/release)\n\n1. Run scripts/bump.sh\n2. Read notes.md\n\nFiles in this skill:\n- .shiro/skills/release/notes.md\n- .shiro/skills/release/scripts/bump.sh\nRead them with read_file.",
    );
    expect(await errorOf(runTool(tool, { name: "nope" }, ctx))).toBe('skill: there is no skill "nope". Skills: release.');
  });

  test("a skill outside the workspace: its files are read through the tool, and only its own files", async () => {
    const home = tempDir();
    write(join(home, ".shiro-neko/skills/style/SKILL.md"), skillMd("style", "house style"));
    write(join(home, ".shiro-neko/skills/style/guide.md"), "Use tabs.\n");
    write(join(home, ".shiro-neko/skills/style/.env"), "KEY=1\n");
    write(join(home, "secret.txt"), "private\n");
    const { skills } = loadSkills(skillSources({ root: tempDir(), shiroHome: join(home, ".shiro-neko"), home }));
    const tool = createSkillTool(skills);
    const root = tempDir();
    const ctx = { root, cwd: root, signal: new AbortController().signal };
    const result = await runTool(tool, { name: "style" }, ctx);
    expect(result.output).toContain(`Skill style (${join(home, ".shiro-neko/skills/style")})`);
    expect(result.output).toContain('Files in this skill:\n- guide.md\nRead one with skill {"name": "style", "file": "<path above>"}.');
    expect((await runTool(tool, { name: "style", file: "guide.md" }, ctx)).output).toBe("Use tabs.\n");
    // Out of the skill's folder, whether written relative to it, absolute, or through a link.
    const secret = join(home, "secret.txt");
    symlinkSync(secret, join(home, ".shiro-neko/skills/style/link.txt"));
    for (const file of [relative(join(home, ".shiro-neko/skills/style"), secret), secret, "link.txt"]) {
      expect(await errorOf(runTool(tool, { name: "style", file }, ctx))).toContain("is not a file of the skill style");
    }
    expect(await errorOf(runTool(tool, { name: "style", file: ".env" }, ctx))).toContain("secrets file");
  });
});
