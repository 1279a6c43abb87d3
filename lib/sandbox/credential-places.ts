/**
 * Places under the home directory that hold credentials, hidden in the sandbox (an empty directory
 * or an unreadable file in their place); `sandboxReadable` shows one again, read-only, and config
 * `sandboxHide` adds more. Grouped by what holds them; docs/permissions.md lists them in words.
 * A place that does not exist on a machine is left alone there.
 */
export const CREDENTIAL_PLACES = [
  // SSH, GPG and password stores, keyrings.
  ".ssh", ".gnupg", ".password-store", ".local/share/keyrings", ".config/op", ".op",
  ".authinfo", ".authinfo.gpg",
  // Clouds.
  ".aws", ".azure", ".config/gcloud", ".boto", ".oci", ".aliyun", ".config/doctl", ".config/hcloud",
  ".config/scw", ".config/linode-cli", ".fly", ".vercel", ".netlify", ".wrangler", ".config/.wrangler",
  ".pulumi", ".config/configstore", ".databrickscfg", ".snowsql", ".kaggle", ".ngrok2", ".config/ngrok",
  ".cache/huggingface/token", ".cache/huggingface/stored_tokens", ".huggingface/token",
  // Storage: rclone, s3cmd, s3fs.
  ".config/rclone", ".s3cfg", ".passwd-s3fs",
  // Containers, clusters, infrastructure.
  ".kube", ".docker", ".config/helm/repositories.yaml", ".terraform.d", ".terraformrc", ".vault-token",
  ".config/sops/age",
  // Version control and forges.
  ".netrc", ".git-credentials", ".config/git/credentials", ".config/gh", ".config/hub", ".config/glab-cli",
  ".config/tea", ".subversion/auth",
  // Package registries.
  ".npmrc", ".yarnrc", ".yarnrc.yml", ".pypirc", ".config/pip/pip.conf", ".pip/pip.conf",
  ".cargo/credentials", ".cargo/credentials.toml", ".gem/credentials", ".m2/settings.xml",
  ".m2/settings-security.xml", ".gradle/gradle.properties", ".ivy2/.credentials", ".sbt/.credentials",
  ".composer/auth.json", ".config/composer/auth.json", ".nuget/NuGet/NuGet.Config",
  // Databases.
  ".pgpass", ".my.cnf", ".mylogin.cnf",
  // Shell and REPL histories (commands typed with tokens in them).
  ".bash_history", ".zsh_history", ".zhistory", ".sh_history", ".history", ".local/share/fish/fish_history",
  ".local/share/atuin", ".python_history", ".node_repl_history", ".psql_history", ".mysql_history",
  ".sqlite_history", ".rediscli_history",
  // Browsers.
  ".mozilla", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware", ".config/microsoft-edge",
  // Other tools' keys, and coding agents' homes (shiro's own too).
  ".wakatime.cfg", ".config/github-copilot", ".shiro-neko", ".codex", ".claude", ".claude.json", ".gemini",
  ".continue",
] as const;
