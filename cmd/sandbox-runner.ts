/**
 * The runner: the one long-lived process inside the sandbox. shiro starts it once per session
 * under bubblewrap (with its own PID namespace) and asks it to start each command; a background
 * server a command leaves behind stays in the namespace and keeps running for the next command,
 * and everything in it ends with the runner when the session does (`--die-with-parent`). Speaks
 * protocol.ts on stdin/stdout. It sees only what the sandbox shows and holds no key.
 */
import type { FromRunner, ToRunner } from "../lib/sandbox/protocol.ts";
import { readMessages } from "../lib/sandbox/read-messages.ts";
import { pipeStream } from "../lib/fs/pipe-read.ts";
import { killGroup } from "../lib/sandbox/process.ts";

type Reader = { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(): Promise<void> };
type Running = { proc: ReturnType<typeof Bun.spawn<"ignore", "pipe", "pipe">>; readers: Reader[] };

export async function runRunner(): Promise<void> {
  const children = new Map<number, Running>();
  const send = (message: FromRunner) => {
    try {
      process.stdout.write(JSON.stringify(message) + "\n");
    } catch {
      // shiro went away; --die-with-parent ends this process
    }
  };

  const pump = async (id: number, s: 1 | 2, reader: Reader) => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || !value) break;
        send({ t: "out", id, s, d: Buffer.from(value).toString("base64") });
      }
    } catch {
      // released
    }
    send({ t: "eof", id, s });
  };

  const handle = (message: ToRunner) => {
    switch (message.t) {
      case "spawn": {
        let proc: Running["proc"];
        try {
          proc = Bun.spawn(message.argv, { cwd: message.cwd, env: message.env, detached: true, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
        } catch (error) {
          send({ t: "error", id: message.id, message: `${message.argv[0]}: ${error instanceof Error ? error.message : String(error)}` });
          return;
        }
        const readers: Reader[] = [pipeStream(proc.stdout).getReader(), pipeStream(proc.stderr).getReader()];
        children.set(message.id, { proc, readers });
        void pump(message.id, 1, readers[0]!);
        void pump(message.id, 2, readers[1]!);
        void proc.exited.then(() => send({ t: "exit", id: message.id, code: proc.exitCode, signal: proc.signalCode === null ? null : String(proc.signalCode) }));
        return;
      }
      case "stop": {
        const child = children.get(message.id);
        if (!child) return send({ t: "stopped", id: message.id });
        void killGroup(child.proc.pid).then(() => send({ t: "stopped", id: message.id }));
        return;
      }
      case "release": {
        const child = children.get(message.id);
        children.delete(message.id);
        for (const reader of child?.readers ?? []) reader.cancel().catch(() => {});
        return;
      }
      default:
        return message satisfies never;
    }
  };

  send({ t: "ready" });
  await readMessages<ToRunner>(pipeStream(Bun.stdin.stream()), handle);
  // shiro closed our stdin: the session is over. Leaving ends the namespace and all in it.
  process.exit(0);
}

if (import.meta.main) void runRunner();
