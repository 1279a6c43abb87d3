import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseFrontMatter } from "../text/front-matter.ts";

/** One folder skills are read from, how `/skills` names it, and whether it is the project's (else the user's). */
export type SkillSource = { dir: string; label: string; project?: boolean };

export type Skill = {
  name: string;
  description: string;
  /** The skill's folder (absolute). */
  dir: string;
  /** Its SKILL.md (absolute). */
  file: string;
  /** The source it came from (SkillSource.label). */
  source: string;
  /** True when that source is the project's. */
  project?: boolean;
};

/**
 * The skills a session has: `skills` are the winners by name (sorted), `shadowed` the ones a later
 * source replaced, `problems` one line per SKILL.md that could not be used.
 */
export type SkillSet = { skills: Skill[]; shadowed: { skill: Skill; by: Skill }[]; problems: string[]; searched: string[] };

export const NO_SKILLS: SkillSet = { skills: [], shadowed: [], problems: [], searched: [] };

/** A skill's name: what the model passes to the skill tool. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Longer descriptions are cut in the system prompt, which lists every skill on every request. */
export const MAX_DESCRIPTION_CHARS = 300;

/**
 * Where skills are looked for, lowest precedence first (a later source wins by name): the user's
 * folders before the project's, and within each, other tools' folders (`.claude/skills`,
 * `.agents/skills`) before shiro's own. A folder listed twice (the project is the home) is read once.
 */
export function skillSources(opts: { root: string; shiroHome: string; home: string }): SkillSource[] {
  const sources: SkillSource[] = [
    { dir: join(opts.home, ".claude", "skills"), label: "~/.claude/skills" },
    { dir: join(opts.home, ".agents", "skills"), label: "~/.agents/skills" },
    { dir: join(opts.shiroHome, "skills"), label: "$SHIRO_HOME/skills" },
    { dir: join(opts.root, ".claude", "skills"), label: ".claude/skills (project)", project: true },
    { dir: join(opts.root, ".agents", "skills"), label: ".agents/skills (project)", project: true },
    { dir: join(opts.root, ".shiro", "skills"), label: ".shiro/skills (project)", project: true },
  ];
  // The project is the home: its folders are the user's own, read once.
  return sources.filter((source, i) => sources.findIndex((s) => s.dir === source.dir) === i);
}

/**
 * Reads every `<source>/<folder>/SKILL.md`. Never throws: a file that cannot be read, or whose
 * front matter is bad or lacks a name or description, is one line in `problems`; a missing source
 * folder is simply empty.
 */
export function loadSkills(sources: readonly SkillSource[]): SkillSet {
  const byName = new Map<string, Skill>();
  const shadowed: SkillSet["shadowed"] = [];
  const problems: string[] = [];
  for (const source of sources) {
    for (const folder of folders(source.dir)) {
      const dir = join(source.dir, folder);
      const file = join(dir, "SKILL.md");
      let text: string;
      try {
        if (!statSync(file).isFile()) continue;
        text = readFileSync(file, "utf8");
      } catch {
        continue; // a folder without a SKILL.md is not a skill
      }
      // `.claude/skills (project)` names the folder, then whose it is: `.claude/skills/x/SKILL.md (project)`.
      const [, folderLabel = source.label, owner] = /^(.*?)( \(\w+\))?$/.exec(source.label) ?? [];
      const where = `${folderLabel}/${folder}/SKILL.md${owner ?? ""}`;
      const parsed = readSkill(text);
      if (typeof parsed === "string") {
        problems.push(`skill ${where} is not used: ${parsed}`);
        continue;
      }
      const skill: Skill = { ...parsed, dir, file, source: source.label, ...(source.project ? { project: true } : {}) };
      const earlier = byName.get(skill.name);
      if (earlier) shadowed.push({ skill: earlier, by: skill });
      byName.set(skill.name, skill);
    }
  }
  const skills = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { skills, shadowed, problems, searched: sources.map((source) => source.label) };
}

/**
 * One line per skill of the user's own that the project's skill of the same name replaces, said
 * when a session starts (the loop, and on stderr headless): a repository must not silently swap
 * what the user's own skill does. Pure.
 */
export function shadowNotices(set: SkillSet): string[] {
  return set.shadowed
    .filter(({ skill, by }) => !skill.project && by.project)
    .map(({ skill, by }) => `skill ${skill.name}: this project's ${by.source.replace(/ \(project\)$/, "")}/${folderOf(by)} replaces your own from ${skill.source}; the model gets the project's. Rename one to keep both.`);
}

const folderOf = (skill: Skill) => skill.dir.split("/").pop() ?? skill.name;

/** `/skills`: each skill with where it came from, the ones replaced by a later source, the broken files. Pure. */
export function skillListing(set: SkillSet): string[] {
  const lines: string[] = [];
  if (set.skills.length === 0) lines.push("No skills.");
  else {
    const width = Math.max(...set.skills.map((s) => s.name.length)) + 2;
    lines.push("Skills (the model sees each name and description; the skill tool gives the rest):");
    for (const skill of set.skills) lines.push(`  ${skill.name.padEnd(width)}${skill.source} · ${skill.description}`);
  }
  for (const { skill, by } of set.shadowed) lines.push(`  (${skill.name} from ${skill.source} is replaced by the one from ${by.source})`);
  if (set.problems.length > 0) lines.push("Not used:", ...set.problems.map((problem) => `  ${problem}`));
  lines.push(`Looked in, later ones winning by name: ${set.searched.join(", ")}.`);
  return lines;
}

/** Name and description from a SKILL.md's text, or why it cannot be used. Pure. */
export function readSkill(text: string): { name: string; description: string } | string {
  const parsed = parseFrontMatter(text);
  if (!parsed.ok) return parsed.why;
  const name = parsed.fields.name?.trim();
  const description = parsed.fields.description?.trim().replace(/\s+/g, " ");
  if (!name) return 'its front matter has no "name" (start the file with ---, name: …, description: …, ---)';
  if (!NAME.test(name)) return `its name "${name.slice(0, 70)}" must be letters, digits, ".", "_" or "-" (at most 64)`;
  if (!description) return 'its front matter has no "description" (one line saying when to use the skill)';
  return { name, description: description.length > MAX_DESCRIPTION_CHARS ? description.slice(0, MAX_DESCRIPTION_CHARS - 1) + "…" : description };
}

/** A skill's instructions: SKILL.md without its front matter. */
export function skillInstructions(skill: Skill): string {
  const parsed = parseFrontMatter(readFileSync(skill.file, "utf8"));
  return parsed.ok ? parsed.body.trim() : "";
}

function folders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => (entry.isDirectory() || entry.isSymbolicLink()) && !entry.name.startsWith("."))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}
