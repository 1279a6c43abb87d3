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

/**
 * Can bubblewrap at `bwrap` make the sandbox here? Answered by trying: a container without user
 * namespaces, or a kernel that forbids them, has bwrap installed but cannot use it. Linux only
 * (macOS has no bubblewrap). Asked once per process and path; takes a few milliseconds.
 */
export function detectSandbox(bwrap: string | undefined, platform: string = process.platform): SandboxSupport {
  if (platform !== "linux") {
    return { available: false, why: `shiro's sandbox uses bubblewrap, which runs on Linux only (this is ${platform})`, fix: "run shiro on Linux, or in a Linux VM or container, for the sandbox" };
  }
  if (!bwrap) return { available: false, why: "bubblewrap (bwrap) is not installed", fix: installCommand() };
  const known = probed.get(bwrap);
  if (known) return known;
  let result: SandboxSupport;
  try {
    const probe = Bun.spawnSync(
      [bwrap, "--die-with-parent", "--unshare-user", "--unshare-pid", "--cap-drop", "ALL", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", "/bin/sh", "-c", "exit 0"],
      { stdin: "ignore", stdout: "ignore", stderr: "pipe", env: { PATH: "/usr/bin:/bin" } },
    );
    const message = probe.stderr.toString().trim().split("\n")[0] ?? "";
    result =
      probe.exitCode === 0
        ? { available: true, bwrap }
        : {
            available: false,
            why: `bubblewrap is installed but cannot make a sandbox here${message ? ` (${message})` : ""}; user namespaces are probably off, as in many containers`,
            fix: "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu), or run the container with user namespaces enabled",
          };
  } catch (error) {
    result = { available: false, why: `bubblewrap at ${bwrap} could not be run (${error instanceof Error ? error.message : String(error)})`, fix: installCommand() };
  }
  probed.set(bwrap, result);
  return result;
}
