/**
 * True for files that usually hold secrets: `.env`, `.env.*` other than `.env.example`, and
 * `*.pem`. Pure: looks at the last path segment only, case-insensitively (so it also answers for
 * paths that do not exist). read_file refuses these; the permissions module reuses the rule.
 */
export function isSensitivePath(path: string): boolean {
  const name = (path.replace(/[\\/]+$/, "").split(/[\\/]/).pop() ?? "").toLowerCase();
  if (name === ".env") return true;
  if (name.startsWith(".env.")) return name !== ".env.example";
  return name.endsWith(".pem");
}
