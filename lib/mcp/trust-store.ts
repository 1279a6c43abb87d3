import { join } from "node:path";
import * as v from "valibot";
import { writeStateFileSync } from "../fs/atomic-write.ts";
import { readJsonFile } from "../fs/read-json.ts";

/**
 * Which projects' `.mcp.json` the user has trusted, kept in `$SHIRO_HOME/mcp-trust.json`: one
 * entry per project root, holding the hash of the file's content when it was trusted. A changed
 * file no longer matches, so the user is asked again. Written atomically; a corrupt file is set
 * aside (and reported), which only means being asked again.
 */
const TrustFile = v.object({
  version: v.literal(1),
  projects: v.record(v.string(), v.object({ sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)), trustedAt: v.string() })),
});
type TrustFile = v.InferOutput<typeof TrustFile>;

export function trustFilePath(home: string): string {
  return join(home, "mcp-trust.json");
}

function readTrust(home: string): { file: TrustFile; notice?: string } {
  const read = readJsonFile(trustFilePath(home), TrustFile);
  if (read.status === "ok") return { file: read.value };
  const empty: TrustFile = { version: 1, projects: {} };
  if (read.status === "missing") return { file: empty };
  const where = read.movedTo ? `; it was moved to ${read.movedTo}` : "";
  return { file: empty, notice: `the list of trusted .mcp.json files could not be read (${read.reason})${where}. You will be asked again.` };
}

/** Whether this project's `.mcp.json`, with exactly this content, was trusted. Never throws. */
export function isProjectTrusted(home: string, projectRoot: string, sha256: string): { trusted: boolean; notice?: string } {
  const { file, notice } = readTrust(home);
  return { trusted: file.projects[projectRoot]?.sha256 === sha256, ...(notice ? { notice } : {}) };
}

/** Remembers that the user trusts this content of the project's `.mcp.json` (replacing an earlier answer). */
export function trustProject(home: string, projectRoot: string, sha256: string, now: Date = new Date()): void {
  const { file } = readTrust(home);
  file.projects[projectRoot] = { sha256, trustedAt: now.toISOString() };
  writeStateFileSync(trustFilePath(home), JSON.stringify(file, null, 2) + "\n");
}
