// The contract that keeps /undo whole: every tool a session gets that changes files tells the
// turn's journal about each file before it changes it. A new mutating tool without a sample here
// fails the first test, so forgetting `ctx.journal.before` cannot go unnoticed.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { createNotebook } from "../../lib/notebook/notebook.ts";
import type { AnyTool } from "../../lib/tools/define.ts";
import { toolsFor } from "../../lib/tools/index.ts";
import { makeWorkspace, runTool, type Workspace } from "./fixture.ts";

/** The workspace each call starts from. */
const FILES = { "a.txt": "one\ntwo\n", "b.txt": "bee\n", "gone.txt": "bye\n" };

/** A call of each file-changing tool that changes files of FILES (and may create new ones). */
const SAMPLES: Record<string, unknown> = {
  write_file: { path: "new/c.txt", content: "sea\n" },
  edit_file: { path: "a.txt", oldString: "one", newString: "uno" },
  multi_edit: { path: "a.txt", edits: [{ oldString: "one", newString: "uno" }, { oldString: "two", newString: "dos" }] },
  apply_patch: { input: ["*** Begin Patch", "*** Add File: d.txt", "+dee", "*** Update File: a.txt", "*** Move to: moved/a.txt", "@@", "-one", "+uno", "*** Delete File: gone.txt", "*** End Patch"].join("\n") },
  move_file: { from: "b.txt", to: "sub/b.txt" },
  delete_file: { path: "gone.txt" },
};

/** The tools that change files: they mutate, and what they change is named by paths, not a command line (bash's changes are counted, not journaled). */
const fileTools = (): AnyTool[] => toolsFor({ notebook: createNotebook() }).filter((tool) => tool.mutates && tool.subject.kind !== "command");

/** Every file under root, with its content. */
function snapshot(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else files.set(relative(root, abs), readFileSync(abs, "utf8"));
    }
  };
  walk(root);
  return files;
}

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
  ws.write(FILES);
});
afterEach(() => ws.cleanup());

describe("every file-changing tool records to the undo journal", () => {
  test("each one a session gets has a sample call here", () => {
    const names = fileTools().map((tool) => tool.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => !(name in SAMPLES))).toEqual([]);
  });

  for (const tool of fileTools()) {
    test(`${tool.name}: every file it changes, creates or removes is told to the journal first, as it was`, async () => {
      const start = snapshot(ws.root);
      /** What each path held when the journal heard of it (undefined: absent). */
      const told = new Map<string, string | undefined>();
      ws.ctx.journal = {
        before: async (abs) => {
          const rel = relative(ws.root, abs);
          if (!told.has(rel)) told.set(rel, existsSync(abs) ? readFileSync(abs, "utf8") : undefined);
        },
      };
      await runTool(tool, SAMPLES[tool.name], ws.ctx);
      const end = snapshot(ws.root);
      const changed = [...new Set([...start.keys(), ...end.keys()])].filter((rel) => start.get(rel) !== end.get(rel)).sort();
      expect(changed.length).toBeGreaterThan(0);
      expect(changed.filter((rel) => !told.has(rel))).toEqual([]);
      // Told before the change: the journal saw each file as the turn found it.
      for (const rel of changed) expect({ rel, was: told.get(rel) }).toEqual({ rel, was: start.get(rel) });
    });
  }
});
