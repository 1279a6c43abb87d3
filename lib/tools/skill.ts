import { readdirSync } from "node:fs";
import { readConfined } from "../fs/confined-ops.ts";
import { join, relative, resolve } from "node:path";
import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { looksBinary } from "../fs/binary.ts";
import { isSensitivePath } from "../fs/sensitive-path.ts";
import { isInside, realpathOrSelf } from "../fs/workspace.ts";
import { skillInstructions, type Skill } from "../skills/skills.ts";
import { defineTool, type ToolContext } from "./define.ts";

/** Files of a skill listed at most (a skill is a handful; a folder of thousands is not read). */
const MAX_LISTED = 50;
const MAX_DEPTH = 3;
/** A skill file read through the tool: bigger ones are refused. */
const MAX_FILE_BYTES = 256 * 1024;

const schema = v.object({
  name: v.pipe(v.string(), v.minLength(1, "name must not be empty")),
  file: v.optional(v.pipe(v.string(), v.description("a file of the skill, relative to its folder"))),
});

/**
 * `skill`: a skill's instructions and the files in its folder. A skill in the workspace lists its
 * files as workspace paths, for read_file; one outside it (the user's `~/.shiro-neko/skills`) is
 * not opened to the file tools: its files are read through this tool's `file`, confined to the
 * skill's own folder. Read-only; allowed by default.
 */
export function createSkillTool(skills: readonly Skill[]) {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  return defineTool({
    name: "skill",
    description: "Load a skill listed in the instructions: its steps and the files it comes with. Pass `file` to read one of them.",
    schema,
    mutates: false,
    subject: { kind: "text", of: (input) => (input.file ? `${input.name} ${input.file}` : input.name) },
    defaultDecision: "allow",
    async execute(input, ctx) {
      const skill = byName.get(input.name);
      if (!skill) throw new ToolError(`skill: there is no skill "${input.name}". Skills: ${[...byName.keys()].join(", ") || "none"}.`);
      if (input.file !== undefined) return readSkillFile(skill, input.file);
      let instructions: string;
      try {
        instructions = skillInstructions(skill);
      } catch (error) {
        throw new ToolError(`skill: cannot read ${skill.file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      }
      const inWorkspace = isInside(realpathOrSelf(ctx.root), realpathOrSelf(skill.dir));
      const files = listFiles(skill.dir);
      const lines = [`Skill ${skill.name} (${where(skill.dir, ctx, inWorkspace)})`, "", instructions || "(SKILL.md has no instructions)"];
      if (files.length > 0) {
        lines.push("", "Files in this skill:", ...files.map((file) => `- ${inWorkspace ? relative(ctx.cwd, join(skill.dir, file)) : file}`));
        lines.push(inWorkspace ? "Read them with read_file." : `Read one with skill {"name": ${JSON.stringify(skill.name)}, "file": "<path above>"}.`);
      }
      return { output: lines.join("\n"), summary: `${skill.name}${files.length > 0 ? ` · ${files.length} ${files.length === 1 ? "file" : "files"}` : ""}` };
    },
  });
}

function where(dir: string, ctx: ToolContext, inWorkspace: boolean): string {
  return inWorkspace ? relative(ctx.cwd, dir) || "." : dir;
}

function readSkillFile(skill: Skill, file: string) {
  const realDir = realpathOrSelf(skill.dir);
  const abs = realpathOrSelf(resolve(skill.dir, file));
  if (!isInside(realDir, abs) || abs === realDir) throw new ToolError(`skill: ${file} is not a file of the skill ${skill.name}; pass a path listed by skill {"name": "${skill.name}"}.`);
  if (isSensitivePath(abs)) throw new ToolError(`skill: ${file} is a secrets file, which shiro does not read.`);
  let bytes: Uint8Array;
  try {
    // Read through the skill's folder, link by link (lib/fs/confined.ts): a folder of a skill in
    // the workspace swapped for a link leading out after the check above is not followed.
    const found = readConfined({ root: skill.dir, tool: "skill" }, resolve(skill.dir, file), { maxBytes: MAX_FILE_BYTES });
    if (found.kind === "missing") throw new ToolError(`skill: ${skill.name} has no file ${file}.`);
    if (found.kind !== "file") throw new ToolError(`skill: ${file} is not a file.`);
    if (!found.bytes) throw new ToolError(`skill: ${file} is larger than ${MAX_FILE_BYTES / 1024} KB.`);
    bytes = found.bytes;
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(`skill: ${skill.name} has no file ${file}.`);
  }
  if (looksBinary(bytes)) throw new ToolError(`skill: ${file} is a binary file.`);
  const text = new TextDecoder().decode(bytes);
  return { output: text, summary: `${skill.name}/${file}` };
}

/** The skill's files relative to its folder, SKILL.md and hidden ones left out. */
function listFiles(dir: string): string[] {
  const found: string[] = [];
  const visit = (at: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(at, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      return;
    }
    for (const entry of entries) {
      if (found.length >= MAX_LISTED) return;
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) visit(path, depth + 1);
      } else if (entry.isFile() && !(at === dir && entry.name === "SKILL.md")) found.push(relative(dir, path));
    }
  };
  visit(dir, 1);
  return found;
}
