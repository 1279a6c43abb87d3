import { describe, expect, test } from "bun:test";
import { subjectOf } from "../../lib/tools/define.ts";
import { coreTools } from "../../lib/tools/index.ts";
import { createPermissionPolicy } from "../../lib/permissions/policy.ts";
import type { PermissionConfig } from "../../lib/config/permission-schema.ts";

const tool = (name: string) => coreTools.find((t) => t.name === name)!;
const policy = (permission: PermissionConfig, yolo = true) => createPermissionPolicy({ config: { permission }, root: "/w", home: "/h", yolo, interactive: false });
const ask = (p: ReturnType<typeof policy>, name: string, input: unknown) => p.approve({ tool: tool(name), input, subject: subjectOf(tool(name), input) ?? "", id: "c1" });
const patch = (...lines: string[]) => ({ input: ["*** Begin Patch", ...lines, "*** End Patch"].join("\n") });

describe("a call that touches several paths is judged on every one", () => {
  test("a deny rule on any file of a patch refuses the whole patch, naming that file", async () => {
    const p = policy({ apply_patch: { "migrations/*": "deny" } });
    const refused = await ask(p, "apply_patch", patch("*** Update File: src/a.ts", "@@", "-a", "+b", "*** Add File: migrations/001.sql", "+DROP"));
    expect(refused).toMatchObject({ allow: false, reason: expect.stringContaining("migrations/001.sql") });
    expect(await ask(p, "apply_patch", patch("*** Update File: src/a.ts", "@@", "-a", "+b"))).toEqual({ allow: true });
  });

  test("secrets files are denied in a patch or a move whatever the rules and --yolo say", async () => {
    const p = policy({ "*": "allow" });
    expect(await ask(p, "apply_patch", patch("*** Update File: app/.env", "@@", "-A=1", "+A=2"))).toMatchObject({ allow: false });
    expect(await ask(p, "move_file", { from: ".env.local", to: "notes.txt" })).toMatchObject({ allow: false });
    expect(await ask(p, "move_file", { from: "a.txt", to: "b.pem" })).toMatchObject({ allow: false });
    expect(await ask(p, "move_file", { from: "a.txt", to: "b.txt" })).toEqual({ allow: true });
  });

  test("an allow for one folder does not cover a move out of it", async () => {
    const p = policy({ move_file: { "docs/*": "allow" } }, false);
    expect(await ask(p, "move_file", { from: "docs/a.md", to: "docs/b.md" })).toEqual({ allow: true });
    expect(await ask(p, "move_file", { from: "docs/a.md", to: "src/b.md" })).toMatchObject({ allow: false }); // asks: denied headless
  });
});
