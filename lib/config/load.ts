import * as v from "valibot";
import { join } from "node:path";
import { homedir } from "node:os";
import { ShiroError } from "../errors.ts";
import { ConfigFile } from "./schema.ts";

/** Where shiro keeps everything it writes. `SHIRO_HOME` relocates it (tests always set it). */
export function shiroHome(env: Record<string, string | undefined>): string {
  return env.SHIRO_HOME || join(env.HOME || homedir(), ".shiro-neko");
}

export function configPath(home: string): string {
  return join(home, "config.json");
}

/**
 * Reads and validates the config file. A missing file is an empty config. A file that is not
 * JSON, or a field that is wrong, is a `config` error naming the file, the field and the fix.
 * The file is never rewritten: it belongs to the user.
 */
export async function loadConfigFile(path: string): Promise<ConfigFile> {
  const file = Bun.file(path);
  if (!(await file.exists())) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(await file.text());
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ShiroError("config", `config file ${path} is not valid JSON (${reason}). Fix it or move it aside.`);
  }
  const parsed = v.safeParse(ConfigFile, raw);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const field = issue.path?.map((p) => String(p.key)).join(".");
  const what =
    issue.type === "strict_object" && field
      ? `unknown field "${field}"`
      : field
        ? `field "${field}" ${issue.message}`
        : issue.message;
  throw new ShiroError("config", `config file ${path}: ${what}. See docs/configuration.md.`);
}
