import { join } from "node:path";
import * as v from "valibot";
import { writeStateFileSync } from "../fs/atomic-write.ts";
import { readJsonFile } from "../fs/read-json.ts";
import type { ServerKind } from "./model-metadata.ts";

/**
 * What servers said about their models, kept in `$SHIRO_HOME/cache/context-windows.json` so a
 * run does not ask again what an earlier one just learned:
 * - `reported`: the window a metadata endpoint gave (or `none`: it gave nothing), for
 *   REPORTED_TTL_MS. Short, because a local server is restarted with another context often, and
 *   asking again costs one quick request.
 * - `refused`: the window a server stated when it refused a request as too long, and how many of
 *   its tokens one estimated token turned out to be, for REFUSED_TTL_MS. Longer, because learning
 *   it again costs a failed request.
 * - `kind`: what a server on this machine turned out to be, for KIND_TTL_MS (a kind that stops
 *   answering is detected again, so a different server on the same port is found out).
 * Keyed by base URL, then model id. A cache only: a file that cannot be read is ignored (and
 * replaced by the next write), every entry is validated on its own, and a failed write is quiet.
 * Two shiro processes writing at once can lose one entry, never corrupt the file (atomic rename).
 */
export const REPORTED_TTL_MS = 60 * 60 * 1000;
export const REFUSED_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const KIND_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const Tokens = v.pipe(v.number(), v.integer(), v.minValue(1));
const Reported = v.object({ contextWindow: v.optional(Tokens), maxOutputTokens: v.optional(Tokens), images: v.optional(v.boolean()), endpoint: v.optional(v.string()), savedAt: v.number() });
const Refused = v.object({ contextWindow: v.optional(Tokens), scale: v.optional(v.pipe(v.number(), v.minValue(1), v.maxValue(8))), images: v.optional(v.literal(false)), savedAt: v.number() });
const Kind = v.object({ kind: v.nullable(v.picklist(["ollama", "lmstudio", "vllm", "llamacpp", "openrouter", "openai", "other"])), savedAt: v.number() });

export type ReportedEntry = v.InferOutput<typeof Reported>;
export type RefusedEntry = v.InferOutput<typeof Refused>;

type ModelEntry = { reported?: ReportedEntry; refused?: RefusedEntry };
type ServerEntry = { kind?: { kind: ServerKind | null; savedAt: number }; models: Record<string, ModelEntry> };
type CacheFile = Record<string, ServerEntry>;

export function windowCachePath(home: string): string {
  return join(home, "cache", "context-windows.json");
}

/** The cache for one server and model, read once; `now` is the clock tests control. */
export type WindowCache = {
  /** The metadata answer, if still fresh (`contextWindow` absent: the server had nothing to say). */
  reported(): ReportedEntry | undefined;
  /** The window learned from a refusal, if still fresh. */
  refused(): RefusedEntry | undefined;
  /** The kind a detection found (null: nothing answered), if still fresh. */
  kind(): ServerKind | null | undefined;
  saveReported(entry: Omit<ReportedEntry, "savedAt">): void;
  saveRefused(entry: Omit<RefusedEntry, "savedAt">): void;
  saveKind(kind: ServerKind | null): void;
};

export function openWindowCache(home: string, baseURL: string, model: string, now: () => number = Date.now): WindowCache {
  const path = windowCachePath(home);
  const fresh = <T extends { savedAt: number }>(entry: T | undefined, ttl: number) => (entry && now() - entry.savedAt < ttl && entry.savedAt <= now() + 60_000 ? entry : undefined);
  const current = () => readCache(path);
  const snapshot = current();
  const update = (change: (server: ServerEntry) => void) => {
    try {
      const file = current();
      const server = (file[baseURL] ??= { models: {} });
      change(server);
      writeStateFileSync(path, JSON.stringify(withoutExpired(file, now()), null, 1) + "\n");
    } catch {
      // A cache that cannot be written only means asking again next time.
    }
  };
  return {
    reported: () => fresh(snapshot[baseURL]?.models[model]?.reported, REPORTED_TTL_MS),
    refused: () => fresh(snapshot[baseURL]?.models[model]?.refused, REFUSED_TTL_MS),
    kind: () => fresh(snapshot[baseURL]?.kind, KIND_TTL_MS)?.kind,
    saveReported: (entry) => update((server) => void ((server.models[model] ??= {}).reported = { ...entry, savedAt: now() })),
    // What one refusal taught is added to what earlier ones did (a refused image, then a refused length).
    saveRefused: (entry) => update((server) => void ((server.models[model] ??= {}).refused = { ...fresh(server.models[model]!.refused, REFUSED_TTL_MS), ...entry, savedAt: now() })),
    saveKind: (kind) => update((server) => void (server.kind = { kind, savedAt: now() })),
  };
}

/** The file, keeping only entries that validate; anything unreadable is an empty cache. */
function readCache(path: string): CacheFile {
  const read = readJsonFile(path, v.record(v.string(), v.unknown()), { setAside: false });
  if (read.status !== "ok") return {};
  const out: CacheFile = {};
  for (const [baseURL, raw] of Object.entries(read.value)) {
    const server = raw && typeof raw === "object" ? (raw as { kind?: unknown; models?: unknown }) : {};
    const entry: ServerEntry = { models: {} };
    const kind = v.safeParse(Kind, server.kind);
    if (kind.success) entry.kind = kind.output;
    if (server.models && typeof server.models === "object") {
      for (const [model, m] of Object.entries(server.models as Record<string, unknown>)) {
        const item = m && typeof m === "object" ? (m as { reported?: unknown; refused?: unknown }) : {};
        const reported = v.safeParse(Reported, item.reported);
        const refused = v.safeParse(Refused, item.refused);
        const kept: ModelEntry = {};
        if (reported.success) kept.reported = reported.output;
        if (refused.success) kept.refused = refused.output;
        if (kept.reported || kept.refused) entry.models[model] = kept;
      }
    }
    out[baseURL] = entry;
  }
  return out;
}

/** The file without entries past their time, so it does not grow with every model ever tried. */
function withoutExpired(file: CacheFile, now: number): CacheFile {
  const out: CacheFile = {};
  for (const [baseURL, server] of Object.entries(file)) {
    const models: Record<string, ModelEntry> = {};
    for (const [model, entry] of Object.entries(server.models)) {
      const kept: ModelEntry = {};
      if (entry.reported && now - entry.reported.savedAt < REPORTED_TTL_MS) kept.reported = entry.reported;
      if (entry.refused && now - entry.refused.savedAt < REFUSED_TTL_MS) kept.refused = entry.refused;
      if (kept.reported || kept.refused) models[model] = kept;
    }
    const kind = server.kind && now - server.kind.savedAt < KIND_TTL_MS ? server.kind : undefined;
    if (kind || Object.keys(models).length > 0) out[baseURL] = { ...(kind ? { kind } : {}), models };
  }
  return out;
}
