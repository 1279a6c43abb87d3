import * as v from "valibot";
import { ToolError } from "../errors.ts";
import { statConfined, unlinkConfined, writeConfined } from "../fs/confined-ops.ts";
import type { Confined } from "../fs/confined.ts";
import { formatLineChanges, unifiedDiff } from "../text/diff.ts";
import { plural } from "../text/lines.ts";
import { defineTool, type ToolPreview } from "./define.ts";
import { patchPaths, planPatch, type PlannedFile } from "./patch/plan.ts";

const schema = v.object({
  input: v.pipe(v.string(), v.minLength(1, "input must not be empty"), v.description("The whole patch.")),
});

/**
 * OpenAI's apply_patch (the envelope GPT-5 and codex models write; see patch/parse.ts). The whole
 * patch is checked first (patch/plan.ts) and nothing is written unless every file section
 * applies; a write that fails midway puts back the files already written.
 */
export const applyPatchTool = defineTool({
  name: "apply_patch",
  description:
    "Add, update, move or delete files with one patch; all or nothing. Format:\n" +
    "*** Begin Patch\n*** Update File: src/a.ts\n@@ function f() {\n context\n-old line\n+new line\n context\n" +
    "*** Add File: b.ts\n+every line prefixed +\n*** Delete File: c.ts\n*** End Patch\n" +
    '"*** Move to: path" may follow Update File. 3 lines of context per change; @@ names a nearby header if that is not unique.',
  schema,
  mutates: true,
  subject: { kind: "path", of: (input) => patchPaths(input.input).join(", ") || "patch", paths: (input) => patchPaths(input.input), readsContent: true },
  defaultDecision: "ask",
  digest: { note: (input) => `(${plural(patchPaths(input.input).length, "file")})` },
  preview(input, ctx): ToolPreview[] {
    const plan = planPatch(input.input, ctx);
    if (!plan.ok) return [{ type: "fails", path: "the patch", why: plan.error }];
    return plan.files.map(previewOf);
  },
  precheck: (input, ctx) => {
    const plan = planPatch(input.input, ctx);
    if (!plan.ok) throw new ToolError(`apply_patch: ${plan.error} Nothing was written: fix that and send the whole patch again.`);
  },
  async execute(input, ctx) {
    const plan = planPatch(input.input, ctx);
    if (!plan.ok) throw new ToolError(`apply_patch: ${plan.error} Nothing was written: fix that and send the whole patch again.`);
    for (const file of plan.files) {
      await ctx.journal?.before(file.abs);
      if (file.type === "update" && file.moveTo) await ctx.journal?.before(file.moveTo.abs);
    }
    const undo: (() => Promise<void>)[] = [];
    try {
      const at: Confined = { root: ctx.root, tool: "apply_patch" };
      for (const file of plan.files) undo.push(write(at, file));
    } catch (error) {
      for (const step of undo.reverse()) await step().catch(() => {});
      const message = error instanceof Error ? error.message : String(error);
      throw new ToolError(`apply_patch: writing failed (${message}); the files already written were put back, so nothing changed.`);
    }
    const lines = plan.files.map(reportLine);
    const names = lines.map((line) => line.split(" (")[0]).join(", ");
    return { output: `Success. Updated the following files:\n${lines.join("\n")}`, summary: `${plural(plan.files.length, "file")}: ${names}` };
  },
});

function previewOf(file: PlannedFile): ToolPreview {
  switch (file.type) {
    case "add":
      return { type: "change", path: file.shown, before: file.before, after: file.after };
    case "delete":
      return { type: "delete", path: file.shown, before: file.before };
    case "update":
      return file.moveTo
        ? { type: "move", path: file.shown, to: file.moveTo.shown, before: file.before, after: file.after }
        : { type: "change", path: file.shown, before: file.before, after: file.after };
    default:
      return file satisfies never;
  }
}

/** `A b.ts (+3 -0)`, `M src/a.ts (+1 -1)`, `D c.ts`: the reference's summary, with line counts. */
function reportLine(file: PlannedFile): string {
  const counts = (before: string | undefined, after: string) => formatLineChanges(unifiedDiff(before ?? "", after));
  switch (file.type) {
    case "add":
      return `A ${file.shown} (${counts(file.before, file.after)}${file.before !== undefined ? ", replaced the existing file" : ""})`;
    case "delete":
      return `D ${file.shown}`;
    case "update":
      return file.moveTo ? `M ${file.moveTo.shown} (moved from ${file.shown}, ${counts(file.before, file.after)})` : `M ${file.shown} (${counts(file.before, file.after)})`;
    default:
      return file satisfies never;
  }
}

/** Makes one file's change, every write confined to the workspace (lib/fs/confined.ts); returns how to take it back if a later file fails. */
function write(at: Confined, file: PlannedFile): () => Promise<void> {
  const modeOf = (abs: string) => {
    const found = statConfined(at, abs);
    return found.kind === "missing" ? undefined : found.mode;
  };
  const putBack = (abs: string, before: string | undefined, mode: number | undefined) => async () => {
    if (before === undefined) return void unlinkConfined(at, abs, { force: true });
    writeConfined(at, abs, before, mode !== undefined ? { mode } : {});
  };
  switch (file.type) {
    case "add": {
      const mode = modeOf(file.abs);
      writeConfined(at, file.abs, file.after);
      return putBack(file.abs, file.before, mode);
    }
    case "delete": {
      const mode = modeOf(file.abs);
      unlinkConfined(at, file.abs);
      return putBack(file.abs, file.before, mode);
    }
    case "update": {
      const mode = modeOf(file.abs);
      if (!file.moveTo) {
        writeConfined(at, file.abs, file.after);
        return putBack(file.abs, file.before, mode);
      }
      const { moveTo } = file;
      const targetMode = modeOf(moveTo.abs);
      writeConfined(at, moveTo.abs, file.after, targetMode === undefined && mode !== undefined ? { mode } : {});
      unlinkConfined(at, file.abs);
      return async () => {
        await putBack(moveTo.abs, moveTo.before, targetMode)();
        await putBack(file.abs, file.before, mode)();
      };
    }
    default:
      return file satisfies never;
  }
}
