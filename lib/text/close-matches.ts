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
