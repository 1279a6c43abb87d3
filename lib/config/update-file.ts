import * as v from "valibot";
import { writeStateFileSync } from "../fs/atomic-write.ts";
import { ShiroError } from "../errors.ts";
import { loadConfigFile } from "./load.ts";
import { ConfigFile } from "./schema.ts";
import { fieldPathText, listWhereObject } from "./field-path.ts";

/**
 * Changes the user's config file and writes it back atomically. The file is loaded (and
 * validated) first, so a broken file is reported and left alone rather than overwritten; the
 * change is validated too, so shiro never writes a config it would refuse to load. Keys the user
 * wrote keep their order; the file is written with two-space indentation and a final newline.
 * Returns the new config.
 */
export async function updateConfigFile(path: string, change: (config: ConfigFile) => ConfigFile): Promise<ConfigFile> {
  const current = await loadConfigFile(path);
  const next = change(structuredClone(current));
  const list = listWhereObject(ConfigFile, next);
  if (list) throw new ShiroError("config", `not saved: field ${fieldPathText(list)} must be an object, not a list. ${path} is unchanged.`);
  const checked = v.safeParse(ConfigFile, next);
  if (!checked.success) {
    const issue = checked.issues[0];
    const keys = (issue.path ?? []).map((step) => step.key);
    throw new ShiroError("config", `not saved: ${keys.length > 0 ? `field ${fieldPathText(keys)} ` : ""}${issue.message}. ${path} is unchanged.`);
  }
  writeStateFileSync(path, JSON.stringify(checked.output, null, 2) + "\n");
  return checked.output;
}
