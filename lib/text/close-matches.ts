import { editDistance } from "./edit-distance.ts";

/**
 * Names from `candidates` that look like a mistyped `wanted`: same name in another case, same
 * name with another extension, or within a small edit distance. Best first, at most `limit`.
 */
export function closeMatches(wanted: string, candidates: readonly string[], limit = 3): string[] {
  const lower = wanted.toLowerCase();
  const stem = stemOf(lower);
  const maxDistance = Math.max(1, Math.floor(wanted.length / 4));
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of candidates) {
    const candidate = name.toLowerCase();
    if (name === wanted) continue;
    let score: number;
    if (candidate === lower) score = 0;
    else if (stemOf(candidate) === stem) score = 1;
    else {
      const distance = editDistance(lower, candidate, maxDistance);
      if (distance > maxDistance) continue;
      score = 1 + distance;
    }
    scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : 1));
  return scored.slice(0, limit).map((s) => s.name);
}

function stemOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * Names a mistyped word most likely meant, for keys and fields (`modle` → model, models):
 * names containing it or contained in it, then those within a few edits; best first, at most
 * `limit`. `shiro config set` and the config file's unknown fields both use it.
 */
export function closeNames(wanted: string, candidates: readonly string[], limit = 3): string[] {
  const lower = wanted.toLowerCase();
  const maxDistance = Math.max(2, Math.floor(wanted.length / 3));
  return candidates
    .filter((name) => name !== wanted)
    .map((name) => {
      const candidate = name.toLowerCase();
      const contains = candidate.includes(lower) || lower.includes(candidate);
      return { name, score: contains ? 0 : editDistance(lower, candidate, maxDistance) };
    })
    .filter((c) => c.score <= maxDistance)
    .sort((a, b) => a.score - b.score)
    .slice(0, limit)
    .map((c) => c.name);
}
