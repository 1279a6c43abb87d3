import { readFileSync } from "node:fs";

/** Whether commands can run in the sandbox on this machine, and if not, why and how to fix it. */
export type SandboxSupport = { available: true; bwrap: string } | { available: false; why: string; fix: string };

/**
 * The command that installs bubblewrap here, from /etc/os-release (Debian and Ubuntu: apt-get;
 * Fedora and RHEL: dnf; Arch: pacman; Alpine: apk; openSUSE: zypper).
 */
export function installCommand(osRelease = readOsRelease()): string {
  const ids = (osRelease.match(/^(?:ID|ID_LIKE)=(.*)$/gm) ?? []).join(" ").toLowerCase();
  if (/debian|ubuntu/.test(ids)) return "sudo apt-get install bubblewrap";
  if (/fedora|rhel|centos/.test(ids)) return "sudo dnf install bubblewrap";
  if (/arch/.test(ids)) return "sudo pacman -S bubblewrap";
  if (/alpine/.test(ids)) return "sudo apk add bubblewrap";
  if (/suse/.test(ids)) return "sudo zypper install bubblewrap";
  return "install bubblewrap (the package is usually called bubblewrap)";
}

function readOsRelease(): string {
  try {
    return readFileSync("/etc/os-release", "utf8");
  } catch {
    return "";
  }
}

const probed = new Map<string, SandboxSupport>();
const probing = new Map<string, Promise<SandboxSupport>>();

/**
 * Can bubblewrap at `bwrap` make the sandbox here? Answered by trying: a container without user
 * namespaces, or a kernel that forbids them, has bwrap installed but cannot use it. Linux only
 * (macOS has no bubblewrap). Asked once per process and path; the try takes 5–10 ms, during which
 * this waits (probeSandbox does not).
 */
export function detectSandbox(bwrap: string | undefined, platform: string = process.platform): SandboxSupport {
  const early = answerWithoutTrying(bwrap, platform);
  if (early) return early;
  let result: SandboxSupport;
  try {
    const probe = Bun.spawnSync(probeCommand(bwrap!), { stdin: "ignore", stdout: "ignore", stderr: "pipe", env: PROBE_ENV });
    result = probeResult(bwrap!, probe.exitCode, probe.stderr.toString());
  } catch (error) {
    result = cannotRun(bwrap!, error);
  }
  probed.set(bwrap!, result);
  return result;
}

/**
 * detectSandbox without waiting: the try runs as a child while shiro goes on with its start-up
 * (loading the model client, reading the project's files), and the answer is awaited only where
 * it is needed. The same answer, and asked once per process and path like detectSandbox.
 */
export function probeSandbox(bwrap: string | undefined, platform: string = process.platform): Promise<SandboxSupport> {
  const early = answerWithoutTrying(bwrap, platform);
  if (early) return Promise.resolve(early);
  const pending = probing.get(bwrap!);
  if (pending) return pending;
  const run = async (): Promise<SandboxSupport> => {
    let result: SandboxSupport;
    try {
      const child = Bun.spawn(probeCommand(bwrap!), { stdin: "ignore", stdout: "ignore", stderr: "pipe", env: PROBE_ENV });
      const [stderr, exitCode] = await Promise.all([new Response(child.stderr).text(), child.exited]);
      result = probeResult(bwrap!, exitCode, stderr);
    } catch (error) {
      result = cannotRun(bwrap!, error);
    }
    probed.set(bwrap!, result);
    return result;
  };
  const promise = run();
  probing.set(bwrap!, promise);
  return promise;
}

/** The answer when no try is needed: not Linux, no bubblewrap, or tried before in this process. */
function answerWithoutTrying(bwrap: string | undefined, platform: string): SandboxSupport | undefined {
  if (platform !== "linux") {
    return { available: false, why: `shiro's sandbox uses bubblewrap, which runs on Linux only (this is ${platform})`, fix: "run shiro on Linux, or in a Linux VM or container, for the sandbox" };
  }
  if (!bwrap) return { available: false, why: "bubblewrap (bwrap) is not installed", fix: installCommand() };
  return probed.get(bwrap);
}

const PROBE_ENV = { PATH: "/usr/bin:/bin" };

/** The smallest sandbox of the kind shiro makes: new user and process namespaces, no capabilities. */
function probeCommand(bwrap: string): string[] {
  return [bwrap, "--die-with-parent", "--unshare-user", "--unshare-pid", "--cap-drop", "ALL", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", "/bin/sh", "-c", "exit 0"];
}

function probeResult(bwrap: string, exitCode: number | null, stderr: string): SandboxSupport {
  if (exitCode === 0) return { available: true, bwrap };
  const message = stderr.trim().split("\n")[0] ?? "";
  return {
    available: false,
    why: `bubblewrap is installed but cannot make a sandbox here${message ? ` (${message})` : ""}; user namespaces are probably off, as in many containers`,
    fix: "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu), or run the container with user namespaces enabled",
  };
}

function cannotRun(bwrap: string, error: unknown): SandboxSupport {
  return { available: false, why: `bubblewrap at ${bwrap} could not be run (${error instanceof Error ? error.message : String(error)})`, fix: installCommand() };
}
