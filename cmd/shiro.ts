#!/usr/bin/env bun
/**
 * Entry point for `bun build --compile`. Parses flags, dispatches, and is the one place that
 * turns errors into exit codes. `--version` and `--help` return before anything heavy loads.
 */
import pkg from "../package.json" with { type: "json" };
import { EXIT_CODES, exitCodeOf, ShiroError } from "../lib/errors.ts";
import { RUNNER_ARG } from "../lib/sandbox/protocol.ts";
import type { FlagTable } from "./args.ts";

type Subcommand = { run: (argv: string[], env: Record<string, string | undefined>) => Promise<number>; flags: FlagTable };

/** Subcommands, loaded only when named. */
const SUBCOMMANDS: Record<string, () => Promise<Subcommand>> = {
  memory: async () => ((m) => ({ run: m.runMemoryCommand, flags: m.MEMORY_FLAGS }))(await import("./memory.ts")),
  sessions: async () => ((m) => ({ run: m.runSessionsCommand, flags: m.SESSIONS_FLAGS }))(await import("./sessions.ts")),
  doctor: async () => ((m) => ({ run: m.runDoctorCommand, flags: m.DOCTOR_FLAGS }))(await import("./doctor.ts")),
  undo: async () => ((m) => ({ run: m.runUndoCommand, flags: m.UNDO_FLAGS }))(await import("./undo.ts")),
  rewind: async () => ((m) => ({ run: m.runRewindCommand, flags: m.REWIND_FLAGS }))(await import("./rewind.ts")),
  config: async () => ((m) => ({ run: m.runConfigCommand, flags: m.CONFIG_FLAGS }))(await import("./config.ts")),
  mcp: async () => ((m) => ({ run: m.runMcpCommand, flags: m.MCP_FLAGS }))(await import("./mcp-login.ts")),
};

/**
 * `shiro --base-url … doctor`: a sub-command named after flags runs with those flags, moved after
 * its own words (before any `--`), when it takes them all; otherwise a usage error says how to
 * write it. The word is never sent to the model as a prompt: `shiro … -- doctor` does that.
 */
async function runAfterFlags(argv: string[], at: number): Promise<number> {
  const name = argv[at]!;
  const command = await SUBCOMMANDS[name]!();
  const before = argv.slice(0, at);
  const after = argv.slice(at + 1);
  const unknown = (await import("./args.ts")).firstUnknownFlag(before, command.flags);
  if (unknown) {
    throw new ShiroError("usage", `shiro ${name} does not take ${unknown}: put the sub-command first (shiro ${name} --help lists its options), or put -- before "${name}" to send it as a prompt.`);
  }
  const dash = after.indexOf("--");
  return command.run(dash < 0 ? [...after, ...before] : [...after.slice(0, dash), ...before, ...after.slice(dash)], process.env);
}

/**
 * `shiro sessions | head -1`: once the reader has gone, the rest of the output has nowhere to go,
 * which is not an error (exit 0, as a headless run does); any other failure to write is one line.
 * For the sub-commands, which write through process.stdout (the loop and `-p` have their own).
 */
function quietWhenReaderGoes(): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") process.stderr.write(`shiro: cannot write the output: ${error.message}\n`);
    process.exit(error.code === "EPIPE" ? 0 : 1);
  });
}

/** A write to stdout whose reader went away (Bun.write rejects with it). */
function isReaderGone(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "EPIPE";
}

/**
 * A headless --json run that fails before its turn (a bad flag, a config error) still ends its
 * stdout with a result record, as every --json run does. Set while that can be the case.
 */
let recordOnFailure = false;

/**
 * `shiro help` alone or before a topic it knows is the help command; any other words after
 * `help` are a prompt (`shiro help me fix the tests`), as for a word that names no command.
 */
async function helpCommand(argv: string[]): Promise<typeof import("./help-topics.ts") | undefined> {
  if (argv[0] !== "help" || argv.length > 2) return undefined;
  const help = await import("./help-topics.ts");
  return argv.length === 1 || help.isHelpTopic(argv[1]!) ? help : undefined;
}

async function main(argv: string[]): Promise<number> {
  const topics = await helpCommand(argv);
  if (topics) {
    quietWhenReaderGoes();
    return topics.runHelpCommand(argv.slice(1), process.env);
  }
  // A lone --version or --help skips the flag parser (a few ms of cold code); with other flags
  // they go through it like any flag.
  const alone = argv.length === 1 ? argv[0] : undefined;
  const version = alone === "--version" || alone === "-v";
  const help = alone === "--help" || alone === "-h";
  // Everything else first takes the API key out of reach of the commands it will run (key-guard.ts).
  if (!version && !help) await (await import("./key-guard.ts")).guardKey();
  const sub = argv[0] ? SUBCOMMANDS[argv[0]] : undefined;
  recordOnFailure = !sub && argv.includes("--json");
  if (sub) {
    quietWhenReaderGoes();
    return (await sub()).run(argv.slice(1), process.env);
  }
  // The flag tables and the help text load only when needed: a lone --version loads neither.
  const parser = version || help ? undefined : await import("./args.ts");
  const args = parser?.parseMainArgs(argv);
  const at = args && !args.promptGiven ? parser!.subcommandAfterFlags(argv, new Set(Object.keys(SUBCOMMANDS))) : undefined;
  if (at !== undefined) {
    recordOnFailure = false;
    quietWhenReaderGoes();
    return runAfterFlags(argv, at);
  }
  // Bun's own writer: touching process.stdout sets up Node's stream machinery, which costs more
  // than the rest of --version put together.
  if (version || args?.version) {
    await Bun.write(Bun.stdout, `${versionLine()}\n`);
    return 0;
  }
  if (help || args?.help || !args) {
    await Bun.write(Bun.stdout, (await import("./help.ts")).helpText(pkg.version));
    return 0;
  }
  // `--goal "…"` runs headless as -p does: the objective is its prompt (docs/goals.md).
  if (args.promptGiven || args.goal?.objective !== undefined || !process.stdin.isTTY) {
    const { runHeadless } = await import("./print.ts");
    return runHeadless(args, process.env);
  }
  if (args.json) throw new ShiroError("usage", '--json is for headless runs: add -p "your request" or pipe the prompt in.');
  if (args.goal) throw new ShiroError("usage", '--until, --max-turns and --max-minutes are for headless runs: add -p "your request", or type /goal … --until "…" in the loop.');
  recordOnFailure = false;
  const { runRepl } = await import("./repl/main.ts");
  return runRepl(args, process.env);
}

/**
 * The build a release names (`linux-x64-baseline`): set by scripts/release.ts through Bun's
 * `define`; a plain build or a source run says the platform it runs on.
 */
declare const SHIRO_BUILD_TARGET: string | undefined;

/** `shiro 0.2.0 (bun 1.4.5, linux-x64)`: the version, the Bun inside the binary, and the build. */
function versionLine(): string {
  const target = typeof SHIRO_BUILD_TARGET === "string" ? SHIRO_BUILD_TARGET : `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
  return `shiro ${pkg.version} (bun ${Bun.version}, ${target})`;
}

/** One line for the user; the stack trace only with --debug (formatted by consola, loaded only then). */
async function report(error: unknown, debug: boolean, argv: string[]): Promise<number> {
  if (isReaderGone(error)) return 0; // `shiro --help | head -1`
  const trace = async (value: unknown) => (await import("consola/basic")).consola.error(value);
  const record = async (code: number, message: string) => {
    if (!recordOnFailure) return;
    const { asksForJson, emptyResultRecord } = await import("./result-record.ts");
    if (!asksForJson(argv)) return;
    try {
      (await import("node:fs")).writeSync(1, emptyResultRecord(code, message));
    } catch {
      // No stdout to write to: the stderr line and the exit code say it all.
    }
  };
  if (error instanceof ShiroError) {
    process.stderr.write(`shiro: ${error.message}\n`);
    if (debug && error.cause) await trace(error.cause);
    await record(exitCodeOf(error), error.message);
    return exitCodeOf(error);
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`shiro: unexpected error: ${message}\n`);
  if (debug) await trace(error);
  else process.stderr.write("Run again with --debug for details, and please report it.\n");
  await record(EXIT_CODES.error, `unexpected error: ${message}`);
  return EXIT_CODES.error;
}

/** How long shiro may linger after its work is done (flushing output) before it exits anyway. */
const EXIT_BACKSTOP_MS = 30_000;

const argv = process.argv.slice(2);
if (argv[0] === RUNNER_ARG) {
  // Inside the sandbox: this process is the runner that starts the session's commands (lib/sandbox).
  void import("./sandbox-runner.ts").then((runner) => runner.runRunner());
} else {
  runCli(argv);
}

function runCli(argv: string[]): void {
  // The AI SDK prints its warnings (an option a model ignores, reasoning it could not send back) as
  // Node process warnings, which read like crashes. They are for developers: shown with --debug only.
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = argv.includes("--debug")
    ? (options: { warnings: unknown[] }) => {
        for (const warning of options.warnings) process.stderr.write(`shiro: debug: AI SDK warning: ${JSON.stringify(warning)}\n`);
      }
    : false;
  // No top-level await: the entry stays a plain module that runs to the end at once.
  main(argv)
    .catch((error: unknown) => report(error, argv.includes("--debug"), argv))
    .then((code) => {
      // Leave when the event loop empties: that is after stdout has drained, however slowly its
      // reader takes it (a write callback fires before the data is out, so exiting there would cut
      // the output). A handle left open by mistake must not keep shiro alive, hence the backstop.
      process.exitCode = code;
      setTimeout(() => process.exit(code), EXIT_BACKSTOP_MS).unref();
    });
}
