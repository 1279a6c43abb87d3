// The layers, enforced: which folder may import which (docs/architecture.md draws the same map).
// A new arrow is a design decision: add it to ALLOWED in the same change, with the reason in the
// docs; an arrow that closes a cycle is refused whatever the table says.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

const ROOT = join(import.meta.dir, "..");

/**
 * A folder of lib/ (or a leaf file at its root, by its name) → what it may import. `x:type` allows
 * type-only imports of x: the shape of a thing, not its code. cmd/ is the edge and may import any
 * of lib/; lib/ never imports cmd/.
 */
const ALLOWED: Record<string, readonly string[]> = {
  errors: [],
  events: [],
  text: [],
  approval: ["tools:type"],
  render: ["events"],
  config: ["errors", "fs", "text"], // fs: update-file.ts writes the user config atomically; text: JSON positions, close matches
  fs: ["errors", "text"],
  image: ["fs"], // fs: the image store writes atomically
  provider: ["config", "errors", "fs"],
  notebook: ["text", "errors"],
  memory: ["errors", "fs", "text"],
  sandbox: ["fs"],
  net: ["errors"],
  skills: ["text"],
  tools: ["errors", "fs", "image", "text", "memory", "notebook", "config", "sandbox", "net", "skills"],
  permissions: ["approval", "config", "fs", "tools", "errors"],
  prune: ["events", "tools", "text"],
  mcp: ["config", "errors", "fs", "permissions", "text", "tools"],
  sessions: ["errors", "events", "fs", "render", "text", "tools"],
  prompt: ["config", "events", "fs", "image", "prune", "sessions", "text", "tools"],
  agent: ["approval", "config", "errors", "events", "fs", "hooks", "image", "memory", "notebook", "provider", "prune", "tools", "text", "sessions:type", "sandbox:type", "skills:type", "mcp:type"],
  hooks: ["config", "fs", "permissions", "sandbox", "tools"], // config: the hooks schema, for a project's settings file; fs: its trust; permissions: the shell reader finds a command's program; sandbox: a hook's process group is ended as a command's is; tools: apply_patch's parser, one event per file
  app: ["agent", "config", "errors", "events", "fs", "hooks", "mcp", "memory", "notebook", "permissions", "prompt", "provider", "prune", "render", "sessions", "sandbox", "skills", "tools"], // events, render: the session's transcript (transcript.ts) keeps a turn's events, a notice in its one-line words
};

/**
 * How cmd/ reaches lib/. The run modes (`shiro -p` in cmd/print.ts, the loop in cmd/repl/) reach
 * the core through lib/app/ (the session service): besides it they import only the leaves and
 * what a view draws or words with (VIEW), and the modules named in VIEW_MODULES (pure words and
 * formats that live beside the core they describe). Type-only imports of any layer are fine: the
 * shape of a thing, not its code. The sub-commands that work on stored files (shiro sessions,
 * undo, memory, doctor, …) each name the core folders they reach, in SUBCOMMAND_REACH.
 */
const VIEW = ["app", "errors", "events", "text", "render", "approval", "prompt", "notebook", "config", "fs"];
const VIEW_MODULES = [
  "lib/agent/context-budget.ts", // windowLabel, formatTokens: the header's and /model's words for a window
  "lib/agent/init-prompt.ts", // /init's prompt text
  "lib/mcp/describe-status.ts", // /mcp's lines
  "lib/mcp/elicitation-form.ts", // the order in which an MCP server's question is asked on the loop's screen
  "lib/hooks/describe.ts", // /hooks' lines
  "lib/permissions/modes.ts", // an approval mode's words
  "lib/prune/repair.ts", // INTERRUPTED_RESULT, the text of a call the turn cut short
  "lib/sessions/pricing.ts", // formatUsd, costUsd
  "lib/sessions/transcript-items.ts", // a resumed conversation's lines
  "lib/sessions/undo/report.ts", // what a turn changed, in words
  "lib/skills/skills.ts", // /skills' listing
];
/** Run-mode files that still reach past lib/app, and why (each one is a debt, not a pattern). */
const MODE_DEBTS: Record<string, readonly string[]> = {
  // The status line's estimate rebuilds the request tail; the conversation is to offer it (issue 34, one request preparation).
  "cmd/repl/context-meter.ts": ["lib/agent/request-estimate.ts", "lib/agent/task-list-note.ts"],
};
const SUBCOMMAND_REACH: Record<string, readonly string[]> = {
  "cmd/shiro.ts": ["sandbox"], // the runner's argument: the binary runs itself as the sandbox's runner
  "cmd/sandbox-runner.ts": ["sandbox"], // the runner inside the sandbox: its protocol and process helpers
  "cmd/mcp-start.ts": ["mcp"],
  "cmd/mcp-doctor.ts": ["mcp"],
  "cmd/mcp-login.ts": ["mcp"], // shiro mcp login / logout
  "cmd/hooks-trust.ts": ["hooks"], // the loop's question about a project's hooks, before the loop takes the terminal
  "cmd/memory.ts": ["agent", "memory", "provider"], // shiro memory compact asks the model
  "cmd/memory-inbox.ts": ["memory"], // shiro memory inbox, accept, reject
  "cmd/doctor.ts": ["agent", "hooks", "memory", "provider", "sandbox", "sessions", "tools"],
  "cmd/sessions.ts": ["memory", "sessions", "tools"],
  "cmd/session-maintenance.ts": ["agent", "prune", "provider", "sessions", "tools"], // shiro sessions compact asks the model
  "cmd/undo.ts": ["sessions"],
  "cmd/rewind.ts": ["sessions"],
};

type Edge = { from: string; to: string; file: string; typeOnly: boolean; target: string };

/** The layer of a source path: "cmd", or lib's folder, or a leaf file at lib's root. */
function layerOf(path: string): string {
  const [top, second] = path.split("/");
  if (top === "cmd") return "cmd";
  return second!.endsWith(".ts") ? second!.slice(0, -3) : second!;
}

/** Every relative import (static, re-export and dynamic) between layers of cmd/ and lib/. */
function importEdges(): Edge[] {
  const edges: Edge[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?[^;]*?\bfrom\s+["'](\.{1,2}\/[^"']+)["']/gms;
  const dynamic = /import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)|^\s*import\s+["'](\.{1,2}\/[^"']+)["']/gm;
  for (const file of new Bun.Glob("{cmd,lib}/**/*.ts").scanSync(ROOT)) {
    const text = readFileSync(join(ROOT, file), "utf8");
    const found: { spec: string; typeOnly: boolean }[] = [];
    for (const m of text.matchAll(statement)) found.push({ spec: m[3]!, typeOnly: Boolean(m[2]) });
    for (const m of text.matchAll(dynamic)) found.push({ spec: (m[1] ?? m[2])!, typeOnly: false });
    for (const { spec, typeOnly } of found) {
      const target = normalize(join(dirname(file), spec));
      if (!/^(lib|cmd)\//.test(target)) continue;
      const from = layerOf(file);
      const to = layerOf(target);
      if (from !== to) edges.push({ from, to, file, typeOnly, target });
    }
  }
  return edges;
}

/** A cycle among the layers, as a path that starts and ends at the same layer, or undefined. */
function findCycle(edges: readonly Edge[]): string[] | undefined {
  const next = new Map<string, Set<string>>();
  for (const e of edges) (next.get(e.from) ?? next.set(e.from, new Set()).get(e.from)!).add(e.to);
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (layer: string): string[] | undefined => {
    if (state.get(layer) === "done") return undefined;
    if (state.get(layer) === "open") return [...stack.slice(stack.indexOf(layer)), layer];
    state.set(layer, "open");
    stack.push(layer);
    for (const to of next.get(layer) ?? []) {
      const cycle = visit(to);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(layer, "done");
    return undefined;
  };
  for (const layer of next.keys()) {
    const cycle = visit(layer);
    if (cycle) return cycle;
  }
  return undefined;
}

const edges = importEdges();

describe("the layers", () => {
  test("the import walk sees the tree (a broken walk would pass every check below)", () => {
    expect(edges.some((e) => e.from === "cmd" && e.to === "agent")).toBe(true);
    expect(edges.some((e) => e.from === "agent" && e.to === "tools")).toBe(true);
    expect(edges.some((e) => e.from === "agent" && e.to === "sessions" && e.typeOnly)).toBe(true);
  });

  test("lib/ never imports cmd/", () => {
    expect(edges.filter((e) => e.from !== "cmd" && e.to === "cmd").map((e) => e.file)).toEqual([]);
  });

  test("every layer of lib/ is in the table, so a new folder needs a decision", () => {
    const layers = new Set(edges.flatMap((e) => [e.from, e.to]).filter((l) => l !== "cmd"));
    expect([...layers].filter((l) => !(l in ALLOWED))).toEqual([]);
  });

  test("every import crosses an allowed arrow", () => {
    const refused = edges
      .filter((e) => e.from !== "cmd")
      .filter((e) => {
        const allowed = ALLOWED[e.from] ?? [];
        return !allowed.includes(e.to) && !(e.typeOnly && allowed.includes(`${e.to}:type`));
      })
      .map((e) => `${e.file}: ${e.from} → ${e.to}${e.typeOnly ? " (type)" : ""}`);
    expect(refused).toEqual([]);
  });

  test("the run modes reach the core through lib/app/; the sub-commands only the folders they name", () => {
    const refused = edges
      .filter((e) => e.from === "cmd" && !e.typeOnly && !VIEW.includes(e.to))
      .filter((e) => {
        const mode = e.file === "cmd/print.ts" || e.file.startsWith("cmd/repl/");
        if (mode) return !VIEW_MODULES.includes(e.target) && !(MODE_DEBTS[e.file] ?? []).includes(e.target);
        return !(SUBCOMMAND_REACH[e.file] ?? []).includes(e.to);
      })
      .map((e) => `${e.file} → ${e.target}`);
    expect(refused).toEqual([]);
  });

  test("the cmd rule sees the tree: the loop reaches lib/app and type-only imports of the core", () => {
    expect(edges.some((e) => e.file.startsWith("cmd/repl/") && e.to === "app" && !e.typeOnly)).toBe(true);
    expect(edges.some((e) => e.file.startsWith("cmd/repl/") && e.to === "agent" && e.typeOnly)).toBe(true);
  });

  test("no cycle between layers", () => {
    expect(findCycle(edges)).toBeUndefined();
  });

  test("the cycle check finds a cycle when there is one", () => {
    const edge = (from: string, to: string): Edge => ({ from, to, file: "x.ts", typeOnly: false, target: "y.ts" });
    expect(findCycle([edge("a", "b"), edge("b", "c"), edge("c", "a")])).toEqual(["a", "b", "c", "a"]);
  });
});
