import { randomBytes } from "node:crypto";
import { chmod, mkdir, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Writes `content` so readers see either the old file or the new one, never half of it: a temp
 * file in the same directory, then rename over the target. Creates missing parent directories,
 * keeps an existing file's permission bits, and writes through a symlink to its target rather than
 * replacing the link. Returns whether the file existed before.
 */
export async function writeFileAtomic(path: string, content: string): Promise<{ existed: boolean }> {
  const target = await realpath(path).catch(() => path);
  const mode = await stat(target).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  const dir = dirname(target);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(target)}.${randomBytes(6).toString("hex")}.shiro-tmp`);
  try {
    await writeFile(temp, content);
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return { existed: mode !== undefined };
}
