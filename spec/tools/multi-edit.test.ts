import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { multiEditTool } from "../../lib/tools/multi-edit.ts";
import { errorOf, makeWorkspace, runTool, type Workspace } from "./fixture.ts";

let ws: Workspace;
beforeEach(() => (ws = makeWorkspace()));
afterEach(() => ws.cleanup());

const multiEdit = (input: unknown) => runTool(multiEditTool, input, ws.ctx);
const original = "import a from 'a';\n\nconst x = a(1);\nconst y = a(2);\n";

describe("multi_edit", () => {
  test("applies edits in order, each to the result of the previous one", async () => {
    ws.write({ "m.ts": original });
    const result = await multiEdit({
      path: "m.ts",
      edits: [
        { oldString: "import a from 'a';", newString: "import b from 'b';" },
        { oldString: "a(", newString: "b(", replaceAll: true },
        { oldString: "const x = b(1);", newString: "const x = b(10);" }, // only exists after edit 2
      ],
    });
    expect(result).toEqual({ output: "Edited m.ts: applied 3 edits (4 replacements, +3 -3 lines).", summary: "+3 -3" });
    expect(readFileSync(ws.path("m.ts"), "utf8")).toBe("import b from 'b';\n\nconst x = b(10);\nconst y = b(2);\n");
  });

  test("all or nothing: a failing edit leaves the file untouched and is named", async () => {
    ws.write({ "m.ts": original });
    const message = await errorOf(
      multiEdit({
        path: "m.ts",
        edits: [
          { oldString: "const x", newString: "let x" },
          { oldString: "const z", newString: "let z" },
          { oldString: "const y", newString: "let y" },
        ],
      }),
    );
    expect(message).toStartWith("multi_edit: edit 2 of 3 failed: oldString was not found in m.ts.");
    expect(message).toContain("Edits 1-1 were applied before it, in memory only");
    expect(message).toEndWith("No changes were written; fix that edit and send all of them again.");
    expect(readFileSync(ws.path("m.ts"), "utf8")).toBe(original);
  });

  test("an ambiguous edit reports its match count", async () => {
    ws.write({ "m.ts": original });
    const message = await errorOf(multiEdit({ path: "m.ts", edits: [{ oldString: "a(", newString: "b(" }] }));
    expect(message).toStartWith("multi_edit: edit 1 of 1 failed: oldString appears 2 times in m.ts.");
    expect(readFileSync(ws.path("m.ts"), "utf8")).toBe(original);
  });

  test("needs at least one edit, each with an oldString", async () => {
    ws.write({ "m.ts": original });
    expect(await errorOf(multiEdit({ path: "m.ts", edits: [] }))).toContain("edits must contain at least one edit");
    expect(await errorOf(multiEdit({ path: "m.ts", edits: [{ newString: "x" }] }))).toContain("edits.0.oldString");
  });

  test("does not modify the input it was given", async () => {
    ws.write({ "m.ts": original });
    const input = { path: "m.ts", edits: [{ oldString: "const x", newString: "let x" }] };
    const copy = structuredClone(input);
    await multiEdit(input);
    expect(input).toEqual(copy);
  });
});
