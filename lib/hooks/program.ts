import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { parseShell } from "../permissions/shell-parse.ts";

/** The variables a hook's command may use for the workspace root (Claude Code's name too). */
const PROJECT_VARIABLES = /\$\{?(SHIRO_PROJECT_DIR|CLAUDE_PROJECT_DIR)\}?/g;

/**
 * The program a hook's command starts: the first word of its first simple command, with the
 * project-directory variables put in; undefined when the command starts with something computed.
 */
export function hookProgram(command: string, projectDir: string): string | undefined {
  const expanded = command.replace(PROJECT_VARIABLES, projectDir);
  const first = parseShell(expanded).commands.find((c) => c.words.length > 0);
  const word = first?.words.find((w, i) => i > 0 || !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text)) ?? first?.words[0];
  if (!word || word.expands) return undefined;
  return word.text;
}

/** Where the program of a hook runs from, or why it cannot run. */
export type ProgramCheck = { command: string; program: string | undefined; found?: string; problem?: string };

/**
 * Whether a hook's program exists and may be run: a path (relative to the workspace root) must be
 * an executable file; a bare name must be a shell builtin or on `path`.
 */
export function checkHookProgram(command: string, projectDir: string, path: string): ProgramCheck {
  const program = hookProgram(command, projectDir);
  if (program === undefined) return { command, program, problem: "starts with a computed word; shiro cannot check it" };
  if (SHELL_BUILTINS.has(program)) return { command, program, found: "shell builtin" };
  if (program.includes("/")) {
    const file = isAbsolute(program) ? program : resolve(projectDir, program);
    return { command, program, ...executable(file) };
  }
  for (const dir of path.split(delimiter)) {
    if (dir === "") continue;
    const file = join(dir, program);
    if (!executable(file).problem) return { command, program, found: file };
  }
  return { command, program, problem: `${program} is not on PATH` };
}

function executable(file: string): { found?: string; problem?: string } {
  try {
    if (!statSync(file).isFile()) return { problem: `${file} is not a file` };
  } catch {
    return { problem: `${file} does not exist` };
  }
  try {
    accessSync(file, constants.X_OK);
    return { found: file };
  } catch {
    return { problem: `${file} is not executable (chmod +x ${file})` };
  }
}

const SHELL_BUILTINS = new Set(["echo", "printf", "true", "false", "exit", "test", "[", "cd", "exec", "eval", ":", "read"]);
