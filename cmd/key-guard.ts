/**
 * Keeps the API key out of reach of the commands shiro runs for the model, when they run without
 * the sandbox (which already shows them no other process). Two measures, both through libc
 * (`bun:ffi`), each skipped where it cannot apply:
 *
 * 1. The key leaves the process's environment block. A process's environment as it was started
 *    stays readable to others of the same user (`/proc/<pid>/environ` on Linux, `ps eww` on
 *    macOS), whatever the program does with it afterwards, so shiro starts itself again with
 *    `execve` (the same process id, nothing left behind) with the variables that can hold the key
 *    taken out, and reads them back from a pipe the new image inherits. A command then finds no
 *    key in `/proc/$PPID/environ`, not even as root.
 * 2. On Linux the process is marked not dumpable (`prctl(PR_SET_DUMPABLE, 0)`): another process of
 *    the same user can then neither attach a debugger (ptrace) nor read `/proc/<pid>/mem` or
 *    `/proc/<pid>/environ`, so the key in shiro's memory stays there. Root still can.
 *
 * Not for `--version` and `--help`, which return before this runs.
 */
import { dlopen, ptr } from "bun:ffi";
import { closeSync, readFileSync, writeSync } from "node:fs";

/** The variable naming the pipe's descriptor in the re-executed process. */
const KEY_FD = "SHIRO_KEY_FD";
/** Variables that may hold the key: shiro's own and every preset's (`OPENAI_API_KEY`, `GROQ_API_KEY`, …). */
const holdsKey = (name: string) => name === "SHIRO_API_KEY" || name.endsWith("_API_KEY");
const PR_SET_DUMPABLE = 4;

type Libc = {
  prctl?: (option: number, a: bigint, b: bigint, c: bigint, d: bigint) => number;
  pipe: (fds: number) => number;
  execve: (path: number, argv: number, envp: number) => number;
};

/**
 * Moves the key-holding variables out of the environment block (re-executing once) and, on Linux,
 * marks the process not dumpable. Returns in the re-executed process, or here when re-executing
 * is not possible (no libc found, execve failed): then the variables simply stay where they were.
 */
export async function guardKey(): Promise<void> {
  const handed = process.env[KEY_FD];
  if (handed !== undefined) {
    delete process.env[KEY_FD];
    takeBack(Number(handed));
  }
  const libc = openLibc();
  if (!libc) return;
  if (handed === undefined && Object.keys(process.env).some(holdsKey)) reexecWithoutKey(libc);
  libc.prctl?.(PR_SET_DUMPABLE, 0n, 0n, 0n, 0n);
}

/** The variables the previous image wrote to the pipe, back into process.env (never into the environment block). */
function takeBack(fd: number): void {
  if (!Number.isInteger(fd) || fd < 3) return;
  try {
    const vars = JSON.parse(readFileSync(fd, "utf8")) as Record<string, string>;
    for (const [name, value] of Object.entries(vars)) if (holdsKey(name) && typeof value === "string") process.env[name] = value;
  } catch {
    // Nothing readable: the run goes on without those variables, and says so if it needs a key.
  } finally {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
}

/** execve of this same program and arguments, the key-holding variables sent through a pipe. Returns only on failure. */
function reexecWithoutKey(libc: Libc): void {
  const fds = new Int32Array(2);
  if (libc.pipe(ptr(fds)) !== 0) return;
  const [readEnd, writeEnd] = [fds[0]!, fds[1]!];
  const moved: Record<string, string> = {};
  const env: string[] = [];
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || name === KEY_FD) continue;
    if (holdsKey(name)) moved[name] = value;
    else env.push(`${name}=${value}`);
  }
  env.push(`${KEY_FD}=${readEnd}`);
  try {
    writeSync(writeEnd, JSON.stringify(moved)); // a few hundred bytes: far below a pipe's buffer
  } catch {
    closeSync(readEnd);
    closeSync(writeEnd);
    return;
  }
  closeSync(writeEnd);
  // A compiled shiro is its own program; from source it is bun running the entry file.
  const compiled = Bun.main.startsWith("/$bunfs/") || Bun.main.startsWith("B:/~BUN/");
  const argv = compiled ? [process.execPath, ...process.argv.slice(2)] : [process.execPath, Bun.main, ...process.argv.slice(2)];
  const keep: Buffer[] = [];
  const cString = (text: string) => {
    const buffer = Buffer.from(`${text}\0`);
    keep.push(buffer);
    return ptr(buffer);
  };
  const pointers = (list: string[]) => {
    const array = new BigUint64Array(list.length + 1);
    list.forEach((text, i) => (array[i] = BigInt(cString(text))));
    return ptr(array);
  };
  libc.execve(cString(process.execPath), pointers(argv), pointers(env));
  // Still here: execve failed. Go on as before, the variables where they were.
  closeSync(readEnd);
}

/** libc's prctl (Linux only), pipe and execve; undefined where no libc can be opened (Windows). */
function openLibc(): Libc | undefined {
  if (process.platform === "win32") return undefined;
  const names = process.platform === "darwin" ? ["libc.dylib", "/usr/lib/libSystem.B.dylib"] : ["libc.so.6", `libc.musl-${process.arch === "arm64" ? "aarch64" : "x86_64"}.so.1`, "libc.so"];
  for (const name of names) {
    try {
      const base = { pipe: { args: ["ptr"], returns: "i32" }, execve: { args: ["ptr", "ptr", "ptr"], returns: "i32" } } as const;
      if (process.platform === "linux") {
        const lib = dlopen(name, { ...base, prctl: { args: ["i32", "u64", "u64", "u64", "u64"], returns: "i32" } });
        return lib.symbols as unknown as Libc;
      }
      return dlopen(name, base).symbols as unknown as Libc;
    } catch {
      // try the next name
    }
  }
  return undefined;
}
