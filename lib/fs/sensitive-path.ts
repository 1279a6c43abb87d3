/** How secrets files are named to the model and the user, in every refusal. */
export const SECRETS_FILES = ".env, .env.*, *.pem, *.key, private SSH keys";

/** Private SSH keys by their usual names (their `.pub` halves are public). */
const PRIVATE_KEY_NAMES = new Set(["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk"]);

/**
 * True for files that usually hold secrets: `.env`, `.env.*` other than `.env.example`, `*.pem`,
 * `*.key` and private SSH keys (`id_rsa`, `id_ed25519`, …). Pure: looks at the last path segment
 * only, case-insensitively (so it also answers for paths that do not exist). read_file, grep,
 * glob and bash refuse these, and the sandbox masks them (lib/sandbox).
 */
export function isSensitivePath(path: string): boolean {
  const name = (path.replace(/[\\/]+$/, "").split(/[\\/]/).pop() ?? "").toLowerCase();
  if (name === ".env") return true;
  if (name.startsWith(".env.")) return name !== ".env.example";
  return name.endsWith(".pem") || name.endsWith(".key") || PRIVATE_KEY_NAMES.has(name);
}
