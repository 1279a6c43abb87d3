#!/bin/sh
# Installs shiro: the build for this system from a release, checked against the release's
# SHA256SUMS, into ~/.local/bin (docs/install.md).
#
#   curl -fsSL https://github.com/shiro-neko/shiro/releases/latest/download/install.sh | sh
#
# Settings (environment):
#   SHIRO_VERSION       a version to install (0.2.0); default the latest release
#   SHIRO_INSTALL_DIR   where the `shiro` command goes; default ~/.local/bin
#   SHIRO_INSTALL_BASE  the folder (URL) holding SHA256SUMS and the builds: a mirror, or a test server
#   SHIRO_INSTALL_CPUINFO  for testing: the file read for the CPU's flags (default /proc/cpuinfo)
#
# POSIX sh (dash, busybox, bash, zsh). Everything is inside main(), so a download cut short
# runs nothing. Nothing is left half-installed: the build is downloaded and checked in a temp
# folder, then moved into place in one step.

set -u

RELEASES="https://github.com/shiro-neko/shiro/releases"

say() { printf 'shiro install: %s\n' "$*"; }
die() {
  printf 'shiro install: %s\n' "$*" >&2
  exit 1
}

# The build's name for this system: linux-x64, linux-x64-baseline, linux-arm64, darwin-x64,
# darwin-arm64. Refuses, in one line, a system with no build.
detect_platform() {
  os=$(uname -s 2>/dev/null) || os=unknown
  arch=$(uname -m 2>/dev/null) || arch=unknown
  case "$os" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT)
      die "on Windows, download shiro-<version>-windows-x64.exe from $RELEASES (or npm i -g shiro-neko); this script is for Linux and macOS." ;;
    *) die "there is no shiro build for $os ($arch): the builds are for Linux and macOS (x64, arm64) and Windows x64; build from source with Bun (see docs/install.md)." ;;
  esac
  case "$arch" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) die "there is no shiro build for $os on $arch: the builds are for x64 and arm64; build from source with Bun (see docs/install.md)." ;;
  esac
  if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null)" = 1 ]; then
    arch=arm64 # a shell under Rosetta on an Apple silicon Mac: the native build is faster
  fi
  if [ "$os" = linux ]; then
    if ldd --version 2>&1 | grep -qi musl || ls /lib/ld-musl-* >/dev/null 2>&1; then
      die "this Linux uses musl libc (Alpine?), and shiro's Linux builds need glibc: use a glibc distribution (Debian, Ubuntu, Fedora…) or build from source with Bun."
    fi
  fi
  platform="$os-$arch"
  if [ "$platform" = linux-x64 ] && ! has_avx2; then
    platform=linux-x64-baseline # the default build stops with an illegal instruction without AVX2
  fi
  if [ "$platform" = darwin-x64 ] && ! has_avx2; then
    die "this Mac's CPU has no AVX2, which the darwin-x64 build needs: build shiro from source with Bun (see docs/install.md)."
  fi
}

# Does the CPU have AVX2? An answer we cannot read counts as yes.
has_avx2() {
  if [ "$os" = darwin ]; then
    features=$(sysctl -n machdep.cpu.leaf7_features 2>/dev/null) || return 0
    case " $features " in *" AVX2 "*) return 0 ;; *) return 1 ;; esac
  fi
  cpuinfo="${SHIRO_INSTALL_CPUINFO:-/proc/cpuinfo}"
  [ -r "$cpuinfo" ] || return 0
  grep -q '^flags.*[[:space:]]avx2\([[:space:]]\|$\)' "$cpuinfo"
}

# download URL FILE: quietly, following redirects, failing on an HTTP error; why it failed is
# left in $why (curl's own words), for the one line that says so.
download() {
  why=""
  if command -v curl >/dev/null 2>&1; then
    why=$(curl -fsSL --retry 2 -o "$2" "$1" 2>&1) && return 0
    why=" (${why##*curl: })"
    return 1
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1"
  else
    die "neither curl nor wget is installed: install one of them and run this again."
  fi
}

# The SHA-256 of FILE, in hex.
sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  elif command -v openssl >/dev/null 2>&1; then
    openssl dgst -sha256 "$1" | sed 's/^.*= *//'
  else
    die "cannot check the download: none of sha256sum, shasum or openssl is installed; install one and run this again."
  fi
}

# How to put DIR on the PATH, for the user's shell.
path_advice() {
  case "${SHELL:-}" in
    */zsh) rc="~/.zshrc" ;;
    */bash) rc="~/.bashrc" ;;
    */fish)
      say "$1 is not on your PATH: run  fish_add_path $1  then open a new terminal."
      return ;;
    *) rc="~/.profile" ;;
  esac
  say "$1 is not on your PATH: add it with  echo 'export PATH=\"$1:\$PATH\"' >> $rc  then open a new terminal."
}

main() {
  detect_platform
  if [ -n "${SHIRO_INSTALL_BASE:-}" ]; then
    base="${SHIRO_INSTALL_BASE%/}"
  elif [ -n "${SHIRO_VERSION:-}" ]; then
    base="$RELEASES/download/v${SHIRO_VERSION#v}"
  else
    base="$RELEASES/latest/download"
  fi
  dir="${SHIRO_INSTALL_DIR:-${HOME:?HOME is not set: set SHIRO_INSTALL_DIR to the folder for shiro}/.local/bin}"

  tmp=$(mktemp -d 2>/dev/null || mktemp -d -t shiro-install) || die "cannot make a temp folder: check that \$TMPDIR (or /tmp) is writable."
  trap 'rm -rf "$tmp"' EXIT
  trap 'rm -rf "$tmp"; exit 130' INT TERM HUP

  download "$base/SHA256SUMS" "$tmp/SHA256SUMS" \
    || die "could not download $base/SHA256SUMS$why: check the network connection (or SHIRO_VERSION / SHIRO_INSTALL_BASE) and run this again."
  # The line of this platform's build: `<sha256>  shiro-<version>-<platform>`.
  entry=$(awk -v suffix="-$platform" '{
      name = $2; sub(/^\*/, "", name)
      if (substr(name, 1, 6) == "shiro-" && length(name) > length(suffix) && substr(name, length(name) - length(suffix) + 1) == suffix) { print $1, name; exit }
    }' "$tmp/SHA256SUMS")
  [ -n "$entry" ] || die "the release at $base has no build for $platform: see $RELEASES for the builds there are, or build from source with Bun (see docs/install.md)."
  expected=${entry%% *}
  name=${entry#* }

  say "downloading $name"
  download "$base/$name" "$tmp/shiro" \
    || die "could not download $base/$name$why: check the network connection and run this again."
  actual=$(sha256_of "$tmp/shiro") || exit 1
  [ "$actual" = "$expected" ] \
    || die "checksum mismatch for $name (expected $expected, got $actual): the download is damaged or was tampered with, so nothing was installed; run this again, and report it if it repeats."
  chmod 755 "$tmp/shiro"
  version=$("$tmp/shiro" --version 2>/dev/null) \
    || die "the downloaded $name does not run on this machine: report it with the output of uname -a."

  mkdir -p "$dir" 2>/dev/null \
    || die "cannot create $dir: choose a folder you can write to with SHIRO_INSTALL_DIR=<folder> and run this again."
  [ -w "$dir" ] \
    || die "$dir is not writable: choose a folder you can write to with SHIRO_INSTALL_DIR=<folder>, or fix its permissions, and run this again."
  # Copied beside the target, then renamed over it: a running shiro keeps its old file, and an
  # interrupted copy never stands as `shiro`.
  cp "$tmp/shiro" "$dir/.shiro.install.$$" 2>/dev/null && mv -f "$dir/.shiro.install.$$" "$dir/shiro" 2>/dev/null || {
    rm -f "$dir/.shiro.install.$$"
    die "cannot write $dir/shiro: choose a folder you can write to with SHIRO_INSTALL_DIR=<folder> (or free some disk space) and run this again."
  }
  say "installed $version at $dir/shiro"
  case ":${PATH:-}:" in
    *":$dir:"* | *":$dir/:"*) say "run: shiro --help" ;;
    *) path_advice "$dir" ;;
  esac
}

main "$@"
