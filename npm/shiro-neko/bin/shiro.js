#!/usr/bin/env node
// The `shiro` command of the npm package: finds the compiled shiro for this system in one of the
// platform packages npm installed beside this one (@shiro-neko/<os>-<cpu>, picked by their `os`,
// `cpu` and `libc` fields) and runs it. Plain Node.js (18 or later); Bun is not needed.
// Signals are passed on to shiro, and this process exits with shiro's own exit code.
"use strict";
const { spawn } = require("node:child_process");
const { readFileSync } = require("node:fs");
const { dirname, join } = require("node:path");

const SCOPE = "@shiro-neko";
const BUILDS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"];

function fail(message) {
  process.stderr.write(`shiro: ${message}\n`);
  process.exit(1);
}

/** Does this x86-64 Linux CPU have AVX2, which the linux-x64 build needs? (Unknown counts as yes.) */
function hasAvx2() {
  try {
    return /^flags\s*:.*\bavx2\b/m.test(readFileSync("/proc/cpuinfo", "utf8"));
  } catch {
    return true;
  }
}

/** The glibc version Node was started with; undefined on musl (Alpine). */
function glibc() {
  try {
    return process.report.getReport().header.glibcVersionRuntime;
  } catch {
    return "unknown";
  }
}

/** The package directory of `name`, or undefined when npm did not install it. */
function packageDir(name) {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

function findBinary() {
  const key = `${process.platform}-${process.arch}`;
  const shown = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
  if (!BUILDS.includes(key)) {
    fail(`there is no build of shiro for ${shown}: the npm package has linux-x64, linux-arm64, darwin-x64, darwin-arm64 and windows-x64; on another system build it from source (see docs/install.md).`);
  }
  if (process.platform === "linux" && glibc() === undefined) {
    fail(`shiro's Linux builds need glibc, and this system (${shown}) uses musl (Alpine?): run it on a glibc distribution, or build it from source with Bun.`);
  }
  const bin = process.platform === "win32" ? "bin/shiro.exe" : "bin/shiro";
  const main = `${SCOPE}/${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
  if (key === "linux-x64" && !hasAvx2()) {
    const baseline = packageDir(`${main}-baseline`);
    if (baseline) return join(baseline, bin);
    fail(`this CPU has no AVX2, which the ${shown} build needs: install the baseline build as well: npm i -g ${main}-baseline (or npm i ${main}-baseline beside shiro-neko).`);
  }
  const dir = packageDir(main);
  if (!dir) {
    fail(`the package ${main}, which holds shiro for ${shown}, is not installed (npm leaves it out when it cannot fetch it, or with --omit=optional): install shiro-neko again (npm i -g shiro-neko).`);
  }
  return join(dir, bin);
}

const binary = findBinary();
const child = spawn(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: false });

child.on("error", (error) => fail(`cannot run ${binary}: ${error.message}; reinstall shiro-neko.`));

/**
 * Is this process in the terminal's foreground process group? Then a Ctrl-C (SIGINT) or Ctrl-\
 * (SIGQUIT) from the terminal reached shiro as well, which shares that group, and passing it on
 * would make it a second one (shiro's "exit at once"). Linux says so in /proc; elsewhere a
 * terminal on stdin stands for it.
 */
function terminalSentItToo() {
  if (process.platform === "win32") return true; // the console sends Ctrl-C to every process on it
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[5] !== "-1" && fields[2] === fields[5]; // pgrp === tpgid
  } catch {
    return Boolean(process.stdin.isTTY);
  }
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"]) {
  try {
    process.on(signal, () => {
      if ((signal === "SIGINT" || signal === "SIGQUIT") && terminalSentItToo()) return;
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  } catch {
    // a signal this system does not have (SIGQUIT, SIGHUP on Windows)
  }
}

child.on("exit", (code, signal) => {
  if (code !== null) process.exit(code);
  // shiro was killed by a signal: end the same way, so the caller sees what it would have seen.
  for (const name of ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"]) process.removeAllListeners(name);
  try {
    process.kill(process.pid, signal);
  } catch {
    // no such signal here
  }
  process.exit(1);
});
