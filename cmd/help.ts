/** The --help text. Plain, fixed, and cheap: printing it loads nothing else. */
export function helpText(version: string): string {
  return `shiro ${version} — a coding agent for your terminal

Usage:
  shiro                         start an interactive session in this directory
  shiro -p "prompt"             run one prompt headless and exit
  git diff | shiro -p "review"  piped stdin is added to the prompt
  shiro -c [-p "prompt"]        continue the newest session in this directory
  shiro -r <id> [-p "prompt"]   resume a session by id or unique prefix
  shiro sessions [list|show|rm|export|compact|repair]   saved sessions, for scripts
  shiro doctor [--write]        check (and fix) the newest session in this directory
  shiro memory list|forget|path|compact   project memory, for scripts

Options:
  -p, --prompt <text>     run headless with this prompt
      --json              headless: one JSON event per line on stdout (see docs/headless.md)
  -c, --continue          continue the newest session in this directory
  -r, --resume <id>       resume a session by id or unique prefix
      --yolo              allow tools that change files or run commands without asking
      --max-spend <usd>   refuse to start a turn once the session has cost this much
  -m, --model <id>        model id (env SHIRO_MODEL, config "model")
      --base-url <url>    OpenAI-compatible endpoint (env SHIRO_BASE_URL / OPENAI_BASE_URL)
      --api <wire>        responses (default) or chat, for servers that only speak Chat Completions
      --provider <name>   preset: openai, openrouter, groq, deepseek, ollama, lmstudio
      --max-steps <n>     step cap per turn (default 50)
      --no-memory         don't load or write project memory (e.g. in CI)
      --debug             show stack traces for errors
  -v, --version           print the version
  -h, --help              print this help

Environment:
  SHIRO_API_KEY / OPENAI_API_KEY   the API key (not needed for a server on localhost)
  SHIRO_HOME                       where shiro keeps its files (default ~/.shiro-neko)

Exit codes: 0 success, 1 provider or model error, 2 usage or configuration error,
3 step cap reached, 4 spend ceiling reached, 130 interrupted.
`;
}
