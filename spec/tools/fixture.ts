// A throwaway workspace per test: a temp dir as ctx.root and ctx.cwd, with helpers to fill it.
import { expect } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ToolContext } from "../../lib/tools/define.ts";
import { tempDir } from "../support/cli.ts";

export { runTool } from "../../lib/tools/define.ts";

export type Workspace = {
  root: string;
  ctx: ToolContext;
  /** Writes files relative to root, creating folders; returns the absolute path of the last one. */
  write: (files: Record<string, string | Uint8Array>) => string;
  path: (rel: string) => string;
  cleanup: () => void;
};

export function makeWorkspace(opts: { signal?: AbortSignal; onOutput?: ToolContext["onOutput"] } = {}): Workspace {
  // Symlinks resolved (tempDir does): paths in messages are compared as strings.
  const root = tempDir("shiro-tools-");
  const path = (rel: string) => join(root, rel);
  return {
    root,
    ctx: { root, cwd: root, signal: opts.signal ?? new AbortController().signal, onOutput: opts.onOutput },
    path,
    write(files) {
      let last = root;
      for (const [rel, content] of Object.entries(files)) {
        last = path(rel);
        mkdirSync(dirname(last), { recursive: true });
        writeFileSync(last, content);
      }
      return last;
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The message of the ToolError a call rejects with (fails the test if it resolves). */
export async function errorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect((error as Error).name).toBe("ToolError");
    return (error as Error).message;
  }
  throw new Error("expected the call to fail, but it succeeded");
}
