import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { writeStateFileSync } from "./atomic-write.ts";
import { readJsonFile } from "./read-json.ts";

/**
 * Which projects' files of one kind (`.mcp.json`, `.shiro/settings.json`) the user has trusted,
 * kept in `$SHIRO_HOME/<fileName>`: one entry per project root, holding the hash of what was
 * trusted. A changed file no longer matches, so the user is asked again. Written atomically; a
 * corrupt file is set aside (and reported), which only means being asked again.
 */
const TrustFile = v.object({
  version: v.literal(1),
  projects: v.record(v.string(), v.object({ sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)), trustedAt: v.string() })),
});
type TrustFile = v.InferOutput<typeof TrustFile>;

export type TrustStore = {
  readonly path: string;
  /** Whether this project's file, with exactly this fingerprint, was trusted. Never throws. */
  isTrusted(projectRoot: string, sha256: string): { trusted: boolean; notice?: string };
  /** Remembers that the user trusts this fingerprint of the project's file (replacing an earlier answer). */
  trust(projectRoot: string, sha256: string, now?: Date): void;
};

/** The store in `home/fileName`; `what` names the trusted file in the notice about a corrupt store. */
export function trustStore(home: string, fileName: string, what: string): TrustStore {
  const path = join(home, fileName);
  const read = (): { file: TrustFile; notice?: string } => {
    const found = readJsonFile(path, TrustFile);
    if (found.status === "ok") return { file: found.value };
    const empty: TrustFile = { version: 1, projects: {} };
    if (found.status === "missing") return { file: empty };
    const where = found.movedTo ? `; it was moved to ${found.movedTo}` : "";
    return { file: empty, notice: `the list of trusted ${what} files could not be read (${found.reason})${where}. You will be asked again.` };
  };
  return {
    path,
    isTrusted(projectRoot, sha256) {
      const { file, notice } = read();
      return { trusted: file.projects[projectRoot]?.sha256 === sha256, ...(notice ? { notice } : {}) };
    },
    trust(projectRoot, sha256, now = new Date()) {
      const { file } = read();
      file.projects[projectRoot] = { sha256, trustedAt: now.toISOString() };
      writeStateFileSync(path, JSON.stringify(file, null, 2) + "\n");
    },
  };
}

/**
 * A trusted file's fingerprint together with the workspace files it names to run: the file's own
 * hash alone when it names none, else a hash over it and each named file's path and bytes (a
 * missing or unreadable file counts as such). `root` is the real workspace root; `files` are
 * relative to it.
 */
export function filesFingerprint(root: string, label: string, fileSha256: string, files: readonly string[]): string {
  if (files.length === 0) return fileSha256;
  const hasher = new Bun.CryptoHasher("sha256").update(`${label} ${fileSha256}\n`);
  for (const file of files) {
    let digest = "unreadable";
    try {
      digest = new Bun.CryptoHasher("sha256").update(readFileSync(join(root, file))).digest("hex");
    } catch {
      // counted as unreadable: it changed since it was named
    }
    hasher.update(`${JSON.stringify(file)} ${digest}\n`);
  }
  return hasher.digest("hex");
}
