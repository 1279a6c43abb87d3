import { rmSync } from "node:fs";
import { makeSandboxTmp } from "./sandbox-tmp.ts";
import { bwrapArgs, type ProfileInput } from "./profile.ts";
import type { GitShield } from "./git-shield.ts";
import { scanWorkspace, type SecretsWatch } from "./secrets-scan.ts";
import { sandboxProcesses, waitUntilEnded } from "./sandbox-gone.ts";
import { failedChild, type Child, type ChildExit, type CommandRunner } from "./process.ts";
import type { FromRunner, ToRunner } from "./protocol.ts";
import { readMessages } from "./read-messages.ts";
import { pipeStream } from "../fs/pipe-read.ts";

export type SandboxRunnerOptions = {
  bwrap: string;
  /** The profile without its per-start parts (the /tmp directory, the secrets found, the git shield). */
  profile: Omit<ProfileInput, "tmp" | "secrets" | "git">;
  /** Starts the runner (cmd/sandbox-runner.ts) inside the sandbox: the shiro binary with RUNNER_ARG. */
  runnerCommand: readonly string[];
  /** The base environment of every command (no key; TMPDIR=/tmp). */
  env: Record<string, string>;
  /** The workspace's secrets files and git places (secrets-scan.ts): asked before each command, looked for again as each one ends. */
  secrets: Pick<SecretsWatch, "scan" | "prefetch">;
  /**
   * git's configuration in the workspace: `plan` makes the shield of a starting sandbox from the
   * git places found (git-shield.ts); `check` blocks what a command planted that the shield could
   * not cover (git-check.ts) and returns what to tell the model and the user ("" when nothing).
   */
  git?: { plan(places: readonly string[]): GitShield; check(shield: GitShield, places: readonly string[]): string };
};

type Pending = {
  id: number;
  /** Undefined until the command is sent to a runner (after the secrets search it waits for). */
  owner?: Runner;
  /** Stopped before it was sent: it never runs. */
  cancelled?: boolean;
  out: ReadableStreamDefaultController<Uint8Array>;
  err: ReadableStreamDefaultController<Uint8Array>;
  open: { 1: boolean; 2: boolean };
  exit: (exit: ChildExit) => void;
  exited: boolean;
  /** stderr ended while the command had not yet exited: it is closed after the git check, which may add to it. */
  errEnded?: boolean;
};

type Runner = {
  proc: ReturnType<typeof Bun.spawn<"pipe", "pipe", "pipe">>;
  children: Map<number, Pending>;
  /** Who waits for a `stopped`, by child: kept apart, since a child can be forgotten before its group is gone. */
  stopping: Map<number, Array<() => void>>;
  masked: Set<string>;
  /** How git's configuration is kept read-only in this sandbox; what it could not cover is checked after each command. */
  shield: GitShield | undefined;
  alive: boolean;
  stderr: Promise<string>;
};

const DIED = "shiro: the sandbox stopped unexpectedly";
const NOT_STARTED = "shiro: the sandbox could not be started";
/** How long the runner may take to start before the sandbox is given up on for that command. */
const READY_TIMEOUT_MS = 10_000;

/**
 * Commands in the sandbox: one bubblewrap per session running the runner (cmd/sandbox-runner.ts), which
 * starts each command inside it. Started by warm() as a turn begins, or else at the first
 * command. Before each command the workspace is checked for new secrets files (secrets-scan.ts);
 * when a new one has appeared and nothing is running, the sandbox is started afresh so the new
 * file is masked too (background processes of the old one stop, and the command's output says
 * so). `close()` ends it and removes its /tmp: the run modes call it on every way out, a forced
 * exit included (their session's close, from a `process.on("exit")` in cmd/); lib/ never touches the process.
 */
export function createSandboxRunner(opts: SandboxRunnerOptions): CommandRunner {
  let tmp: string | undefined;
  let runner: Runner | undefined;
  let nextId = 1;
  let closed = false;
  /** The shield of the last sandbox started: checked once more as the session ends. */
  let lastShield: GitShield | undefined;
  /** The git checks, one at a time. */
  let checking: Promise<unknown> = Promise.resolve();

  const cleanUp = (stopped: number[] = []) => {
    if (runner?.alive) {
      stopped.push(...sandboxProcesses(runner.proc.pid));
      runner.proc.kill("SIGKILL");
    }
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    tmp = undefined;
    // With the sandbox gone nothing in it can plant anything after this last look.
    if (lastShield && opts.git) {
      const shield = lastShield;
      lastShield = undefined;
      waitUntilEnded(stopped);
      try {
        opts.git.check(shield, scanWorkspace(opts.profile.root).git);
      } catch {
        // nothing to tell anyone at exit; what was moved aside stays moved
      }
    }
  };

  /**
   * The git check after (or before) a command, in turn with the others; "" when nothing was
   * blocked or it failed. Without `places` the workspace is searched first (the search the
   * secrets watch would make after the command anyway: this one takes its place).
   */
  const gitCheck = (shield: GitShield, places?: readonly string[]): Promise<string> => {
    const git = opts.git;
    if (!git) return Promise.resolve("");
    const next = checking
      .then(async () => git.check(shield, places ?? (await opts.secrets.scan()).git))
      .catch(() => "");
    checking = next;
    return next;
  };

  const start = (secrets: string[], places: readonly string[]): Runner => {
    if (!tmp) {
      tmp = makeSandboxTmp();
    }
    const shield = opts.git?.plan(places);
    lastShield = shield;
    const { args } = bwrapArgs({ ...opts.profile, tmp, secrets, git: shield });
    const proc = Bun.spawn([opts.bwrap, ...args, "--", ...opts.runnerCommand], {
      cwd: "/",
      env: { PATH: opts.env.PATH ?? "/usr/bin:/bin", HOME: opts.env.HOME ?? "/", LANG: opts.env.LANG ?? "C.UTF-8" },
      // A session of its own: ctrl-c in the terminal signals shiro's process group, which must not
      // take the sandbox (and every background process in it) down with it.
      detached: true,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    const started: Runner = { proc, children: new Map(), stopping: new Map(), masked: new Set(secrets), shield, alive: true, stderr: new Response(pipeStream(proc.stderr)).text() };
    // A runner that never says it is ready (a wrong program, a hung start) is given up on.
    const notReady = setTimeout(() => proc.kill("SIGKILL"), READY_TIMEOUT_MS);
    void readMessages<FromRunner>(pipeStream(proc.stdout), (message) => {
      if (message.t === "ready") clearTimeout(notReady);
      route(started, message);
    }).finally(async () => {
      clearTimeout(notReady);
      started.alive = false;
      const why = (await started.stderr.catch(() => "")).trim();
      for (const child of started.children.values()) {
        if (child.exited) continue;
        const text = `${DIED}${why ? `: ${why}` : ""}\n`;
        if (child.open[2]) child.err.enqueue(new TextEncoder().encode(text));
        child.exited = true;
        finish(child, 1);
        finish(child, 2);
        child.exit({ exitCode: 126, signal: null });
      }
      for (const waiting of started.stopping.values()) for (const done of waiting) done();
      started.stopping.clear();
      started.children.clear();
      if (runner === started) runner = undefined;
    });
    return started;
  };

  const finish = (child: Pending, s: 1 | 2) => {
    if (child.open[s]) {
      child.open[s] = false;
      try {
        (s === 1 ? child.out : child.err).close();
      } catch {
        // cancelled by the reader
      }
    }
    forgetIfDone(child);
  };

  /** Once the child has exited and its output is read or unwanted, the runner can forget it. */
  const forgetIfDone = (child: Pending) => {
    const owner = child.owner;
    if (!owner || !child.exited || child.open[1] || child.open[2] || !owner.children.has(child.id)) return;
    owner.children.delete(child.id);
    send(owner, { t: "release", id: child.id });
  };

  const route = (owner: Runner, message: FromRunner) => {
    if (message.t === "ready") return;
    if (message.t === "stopped") {
      for (const done of owner.stopping.get(message.id) ?? []) done();
      owner.stopping.delete(message.id);
      return;
    }
    const child = owner.children.get(message.id);
    if (!child) return;
    switch (message.t) {
      case "out":
        if (child.open[message.s]) (message.s === 1 ? child.out : child.err).enqueue(new Uint8Array(Buffer.from(message.d, "base64")));
        return;
      case "eof":
        if (message.s === 2 && !child.exited) return void (child.errEnded = true);
        return finish(child, message.s);
      case "exit": {
        const ended = (note: string) => {
          if (note && child.open[2]) child.err.enqueue(new TextEncoder().encode(note));
          child.exited = true;
          if (child.errEnded) finish(child, 2);
          child.exit({ exitCode: message.code, signal: message.signal });
          forgetIfDone(child);
        };
        if (!owner.shield || !opts.git) {
          ended("");
          return commandEnded();
        }
        // The command ends for its caller once the git check has run, so what it blocked is in its output.
        return void gitCheck(owner.shield).then(ended);
      }
      case "error":
        if (child.open[2]) child.err.enqueue(new TextEncoder().encode(message.message + "\n"));
        child.exited = true;
        child.exit({ exitCode: 127, signal: null });
        finish(child, 1);
        return finish(child, 2);
      default:
        return message satisfies never;
    }
  };

  /** A command that was never sent to a runner ends here. */
  const endUnsent = (child: Pending, exitCode: number | null, signal: string | null = null) => {
    if (child.exited) return;
    child.exited = true;
    finish(child, 1);
    finish(child, 2);
    child.exit({ exitCode, signal });
  };

  const send = (owner: Runner, message: ToRunner) => {
    if (!owner.alive) return;
    try {
      owner.proc.stdin.write(JSON.stringify(message) + "\n");
      owner.proc.stdin.flush();
    } catch {
      // the runner is gone; its end is reported through its stdout closing
    }
  };

  /**
   * The secrets search before every command (secrets-scan.ts keeps it cheap while no folder
   * changes). A command can create a secrets file (a checkout, an unpacked archive), so the
   * search starts again as each command ends, while the model reads its output, and the next
   * command's check usually finds it done.
   */
  const secretsNow = () => opts.secrets.scan().catch(() => ({ secrets: [...(runner?.masked ?? [])], git: [] as string[] }));
  const commandEnded = () => {
    if (!closed) opts.secrets.prefetch();
  };

  /** The runner for the next command, started afresh when new secrets files must be masked. */
  const current = (secrets: string[], places: readonly string[]): { owner: Runner; note: string } => {
    if (runner?.alive) {
      const fresh = secrets.filter((file) => !runner!.masked.has(file));
      const running = [...runner.children.values()].some((child) => !child.exited);
      if (fresh.length === 0 || running) return { owner: runner, note: "" };
      runner.proc.kill("SIGKILL");
      runner.alive = false;
      runner = start(secrets, places);
      const note = `shiro: restarted the sandbox to hide the new secrets file ${fresh.join(", ")}; background processes started by earlier commands were stopped.\n`;
      return { owner: runner, note };
    }
    runner = start(secrets, places);
    return { owner: runner, note: "" };
  };

  return {
    sandboxed: true,
    spawn(argv, spawnOpts): Child {
      if (closed) return failedChild("shiro: the sandbox is closed");
      const id = nextId++;
      let exit!: (exit: ChildExit) => void;
      const exited = new Promise<ChildExit>((resolve) => (exit = resolve));
      const child = { id, open: { 1: true, 2: true }, exit, exited: false } as unknown as Pending;
      const stdout = new ReadableStream<Uint8Array>({
        start: (c) => void (child.out = c),
        cancel: () => ((child.open[1] = false), forgetIfDone(child)),
      });
      const stderr = new ReadableStream<Uint8Array>({
        start: (c) => void (child.err = c),
        cancel: () => ((child.open[2] = false), forgetIfDone(child)),
      });
      const env = { ...opts.env, ...spawnOpts.env };
      const sent = secretsNow().then(async ({ secrets, git }) => {
        // What a background process planted since the last command is caught before this one runs.
        const blocked = runner?.alive && runner.shield ? await gitCheck(runner.shield, git) : "";
        if (child.cancelled) return;
        if (closed) {
          if (child.open[2]) child.err.enqueue(new TextEncoder().encode("shiro: the sandbox is closed\n"));
          return endUnsent(child, 127);
        }
        const { owner, note } = current(secrets, git);
        if ((blocked || note) && child.open[2]) child.err.enqueue(new TextEncoder().encode(blocked + note));
        child.owner = owner;
        owner.children.set(id, child);
        send(owner, { t: "spawn", id, argv: [...argv], cwd: spawnOpts.cwd, env });
      }).catch((error: unknown) => {
        // The sandbox could not be started (no /tmp folder, no processes left): the command fails and says why.
        if (child.open[2]) child.err.enqueue(new TextEncoder().encode(`${NOT_STARTED}: ${error instanceof Error ? error.message : String(error)}\n`));
        endUnsent(child, 126);
      });
      return {
        stdout,
        stderr,
        exited,
        stop: async () => {
          if (!child.owner) {
            // Not sent yet when stopped: it never runs.
            child.cancelled = true;
            await sent;
            if (!child.owner) return endUnsent(child, null, "SIGTERM");
          }
          const owner = child.owner;
          if (!owner.alive) return;
          await new Promise<void>((resolve) => {
            owner.stopping.set(id, [...(owner.stopping.get(id) ?? []), resolve]);
            send(owner, { t: "stop", id });
          });
        },
      };
    },
    warm() {
      if (closed || runner?.alive) return;
      void secretsNow()
        .then(({ secrets, git }) => {
          if (!closed && !runner?.alive) current(secrets, git);
        })
        .catch(() => {}); // the first command tries again, and says why it cannot
    },
    close() {
      closed = true;
      const stopped = runner?.alive ? sandboxProcesses(runner.proc.pid) : [];
      if (runner?.alive) {
        runner.alive = false;
        try {
          runner.proc.stdin.end();
        } catch {
          // already gone
        }
        runner.proc.kill("SIGKILL");
      }
      runner = undefined;
      cleanUp(stopped);
    },
  };
}
