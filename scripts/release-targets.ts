/**
 * The builds a release ships, their file names, and how to tell from a file's first bytes which
 * system it is for. Read by scripts/release.ts, scripts/release-npm.ts and the release specs.
 */

/** What a build's header says it runs on: the OS and the CPU, as the build names write them. */
export type Machine = "linux-x64" | "linux-arm64" | "darwin-x64" | "darwin-arm64" | "windows-x64";

export type Target = {
  /** The build's name: the end of its file name and what `shiro --version` says (`linux-x64-baseline`). */
  name: string;
  /** Bun's compile target. */
  bunTarget: Bun.Build.CompileTarget;
  /** The system the file is for, as its header says (a baseline build is an ordinary x86-64 ELF). */
  machine: Machine;
  /** npm's names for the system (`os` and `cpu` of the platform package). */
  os: "linux" | "darwin" | "win32";
  cpu: "x64" | "arm64";
};

/**
 * Every build. linux-x64 needs a CPU with AVX2 (Haswell, 2013, and later): on an older one it
 * stops with an illegal instruction, and linux-x64-baseline is the build for those.
 */
export const TARGETS: readonly Target[] = [
  { name: "linux-x64", bunTarget: "bun-linux-x64-modern", machine: "linux-x64", os: "linux", cpu: "x64" },
  { name: "linux-x64-baseline", bunTarget: "bun-linux-x64-baseline", machine: "linux-x64", os: "linux", cpu: "x64" },
  { name: "linux-arm64", bunTarget: "bun-linux-arm64", machine: "linux-arm64", os: "linux", cpu: "arm64" },
  { name: "darwin-x64", bunTarget: "bun-darwin-x64", machine: "darwin-x64", os: "darwin", cpu: "x64" },
  { name: "darwin-arm64", bunTarget: "bun-darwin-arm64", machine: "darwin-arm64", os: "darwin", cpu: "arm64" },
  { name: "windows-x64", bunTarget: "bun-windows-x64", machine: "windows-x64", os: "win32", cpu: "x64" },
];

/** `shiro-0.2.0-linux-x64`, `shiro-0.2.0-windows-x64.exe`. */
export function binaryName(version: string, target: Target): string {
  return `shiro-${version}-${target.name}${target.os === "win32" ? ".exe" : ""}`;
}

/** The build that runs on this machine (the AVX2 one on x86-64 Linux), or undefined. */
export function hostTarget(): Target | undefined {
  const os = process.platform;
  return TARGETS.find((t) => t.os === os && t.cpu === process.arch && !t.name.endsWith("-baseline"));
}

/**
 * The system an executable is for, from its header: ELF (x86-64, AArch64), 64-bit Mach-O
 * (x86_64, arm64) or PE (AMD64); undefined for anything else.
 */
export function machineOf(bytes: Uint8Array): Machine | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 64) return undefined;
  if (bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46) {
    const machine = view.getUint16(18, true); // e_machine (little-endian ELF)
    return machine === 0x3e ? "linux-x64" : machine === 0xb7 ? "linux-arm64" : undefined;
  }
  if (view.getUint32(0, true) === 0xfeedfacf) {
    const cpu = view.getUint32(4, true);
    return cpu === 0x01000007 ? "darwin-x64" : cpu === 0x0100000c ? "darwin-arm64" : undefined;
  }
  if (bytes[0] === 0x4d && bytes[1] === 0x5a) {
    const pe = view.getUint32(0x3c, true);
    if (pe + 6 > bytes.length || view.getUint32(pe, true) !== 0x00004550) return undefined; // "PE\0\0"
    return view.getUint16(pe + 4, true) === 0x8664 ? "windows-x64" : undefined;
  }
  return undefined;
}

/**
 * The version compiled into a shiro executable, read from its bytes: the bundle keeps
 * package.json's fields as an object literal (`{name:"shiro",version:"0.2.0",…}`). Undefined when
 * it cannot be found (a Bun that writes the bundle differently: then only running it can tell).
 */
export function embeddedVersion(bytes: Uint8Array): string | undefined {
  const marker = Buffer.from('name:"shiro",version:"');
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = buffer.indexOf(marker);
  if (at < 0) return undefined;
  const start = at + marker.length;
  const end = buffer.indexOf(0x22, start); // the closing quote
  return end > start && end - start < 64 ? buffer.toString("latin1", start, end) : undefined;
}
