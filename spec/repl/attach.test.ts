import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ATTACH_MAX_LINES, attachMentions, describeAttachment, withoutAttachments } from "../../lib/prompt/attach.ts";
import { tempDir } from "../support/cli.ts";

function workspace(): { root: string; outside: string } {
  const root = tempDir();
  const outside = tempDir();
  mkdirSync(join(root, "src", "agent"), { recursive: true });
  writeFileSync(join(root, "src", "a.ts"), "const a = 1;\nexport { a };\n");
  writeFileSync(join(root, "src", "agent", "turn.ts"), "x\n");
  writeFileSync(join(root, ".env"), "KEY=secret\n");
  writeFileSync(join(root, "logo.png"), new Uint8Array([0x89, 0x50, 0, 0, 1]));
  writeFileSync(join(outside, "notes.txt"), "private\n");
  return { root, outside };
}

describe("@path attachments", () => {
  test("a file goes after the prompt as numbered lines, the prompt text kept as typed", async () => {
    const { root } = workspace();
    const { text, reports } = await attachMentions("explain @src/a.ts please", { root, cwd: root });
    expect(text).toBe('explain @src/a.ts please\n\n<attached path="src/a.ts" lines="2">\n     1\tconst a = 1;\n     2\texport { a };\n</attached>');
    expect(reports.map(describeAttachment)).toEqual(["attached src/a.ts (2 lines)"]);
  });

  test("paths resolve from the cwd; trailing punctuation is not part of the path; each file once", async () => {
    const { root } = workspace();
    const { text, reports } = await attachMentions("see @a.ts, and again (@a.ts).", { root, cwd: join(root, "src") });
    expect(reports.map(describeAttachment)).toEqual(["attached a.ts (2 lines)"]);
    expect(text.split("<attached").length - 1).toBe(1);
  });

  test("a directory is attached as list_dir's tree", async () => {
    const { root } = workspace();
    const { text, reports } = await attachMentions("what is in @src", { root, cwd: root });
    expect(text).toContain('<attached path="src/" kind="directory">\nsrc/\n  a.ts\n  agent/\n    turn.ts\n</attached>');
    expect(describeAttachment(reports[0]!)).toBe("attached src/ (directory listing, 3 entries)");
  });

  test("an email or a handle that names no file is left as text", async () => {
    const { root } = workspace();
    const { text, reports } = await attachMentions("ask me@example.com or @alice", { root, cwd: root });
    expect(text).toBe("ask me@example.com or @alice");
    expect(reports.map(describeAttachment)).toEqual(["@alice names no file here; sent as text"]);
  });

  test("outside the workspace, through a symlink that leads out, secrets and binary files are refused", async () => {
    const { root, outside } = workspace();
    symlinkSync(outside, join(root, "link"));
    const { text, reports } = await attachMentions(`@../${outside.split("/").pop()}/notes.txt @link/notes.txt @.env @logo.png`, { root, cwd: root });
    expect(text).not.toContain("<attached");
    const lines = reports.map(describeAttachment);
    expect(lines[0]).toMatch(/^not attached: path \.\.\/.*notes\.txt is outside the workspace/);
    expect(lines[1]).toMatch(/^not attached: path link\/notes\.txt leads through a symlink/);
    expect(lines[2]).toBe("not attached: .env is a secrets file (.env, .env.*, *.pem, *.key, private SSH keys), which shiro does not send");
    expect(lines[3]).toBe("not attached: logo.png is a binary file, which cannot be attached as text");
  });

  test("a long file is cut at the line bound and says where the rest starts", async () => {
    const { root } = workspace();
    writeFileSync(join(root, "big.txt"), Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    const { text, reports } = await attachMentions("@big.txt", { root, cwd: root });
    expect(describeAttachment(reports[0]!)).toBe("attached big.txt (lines 1-2,000 of 5,000; the rest left out)");
    expect(text).toContain(`  2000\tline 2000\n\n[Showing lines 1-${ATTACH_MAX_LINES} of 5000 in big.txt. Call read_file with offset 2001 to read more.]`);
    expect(text).not.toContain("line 2001");
  });

  test("a file of long lines is cut at the character bound", async () => {
    const { root } = workspace();
    writeFileSync(join(root, "wide.txt"), Array.from({ length: 500 }, () => "x".repeat(1000)).join("\n"));
    const { text, reports } = await attachMentions("@wide.txt", { root, cwd: root });
    expect(describeAttachment(reports[0]!)).toMatch(/^attached wide\.txt \(lines 1-9\d of 500; the rest left out\)$/);
    expect(text.length).toBeLessThan(101_000);
  });

  test("withoutAttachments gives back the prompt as typed", async () => {
    const { root } = workspace();
    const typed = "compare @src/a.ts with @src";
    expect(withoutAttachments((await attachMentions(typed, { root, cwd: root })).text)).toBe(typed);
    expect(withoutAttachments("no attachments here")).toBe("no attachments here");
  });
});

describe("images", () => {
  test("a pasted path with escaped spaces is attached as an image, kept once in the store; without a store an image is a binary file", async () => {
    const { root } = workspace();
    const shots = tempDir();
    const { pngOf } = await import("../support/images.ts");
    const { readdirSync } = await import("node:fs");
    const { attachImagesFor } = await import("../../lib/prompt/attach-image.ts");
    writeFileSync(join(shots, "My Shot.png"), pngOf(12, 6));
    const shiroHome = tempDir();
    const pasted = `${join(shots, "My Shot.png").replace(/ /g, "\\ ")}`;
    const { text, reports } = await attachMentions(`what is wrong here ${pasted} and @${pasted}`, { root, cwd: root }, { images: attachImagesFor(shiroHome, "/nowhere") });
    expect(reports.map(describeAttachment)).toEqual([`attached ${join(shots, "My Shot.png")} (image, 12×6)`]);
    expect(text).toMatch(/<attached path="[^"]*My Shot\.png" kind="image" ref="[0-9a-f]{64}\.png" type="image\/png" size="12x6">/);
    expect(readdirSync(join(shiroHome, "images"))).toHaveLength(1);
    writeFileSync(join(root, "real.png"), pngOf(2, 2));
    const plain = await attachMentions("@real.png", { root, cwd: root });
    expect(plain.reports.map(describeAttachment)).toEqual(["not attached: real.png is a binary file, which cannot be attached as text"]);
  });

  test("an image outside the workspace is attached only when the user typed its path, not when only a project's command names it", async () => {
    const { root } = workspace();
    const shots = tempDir();
    const { pngOf } = await import("../support/images.ts");
    const { attachImagesFor } = await import("../../lib/prompt/attach-image.ts");
    const shot = join(shots, "private.png");
    writeFileSync(shot, pngOf(4, 4));
    writeFileSync(join(root, "inside.png"), pngOf(3, 3));
    symlinkSync(shot, join(root, "link.png"));
    const images = attachImagesFor(tempDir(), "/nowhere");
    const where = { root, cwd: root };
    // The body of a project's command names it (as @path, pasted, and through a symlink in the project); the user typed only "src".
    const body = `Summarise @${shot} and ${shot} and @link.png and @inside.png for src`;
    const fromProject = await attachMentions(body, where, { images, typed: "src" });
    expect(fromProject.text.match(/kind="image"/g)).toHaveLength(1); // inside.png's only
    expect(fromProject.reports.map(describeAttachment)).toEqual([
      `not attached: ${shot} is outside the workspace and was named by the project's command file, not typed by you; type its path to attach it`,
      "not attached: link.png is outside the workspace and was named by the project's command file, not typed by you; type its path to attach it",
      "attached inside.png (image, 3×3)",
    ]);
    const typedByUser = await attachMentions(body, where, { images, typed: `look at ${shot}` });
    expect(typedByUser.reports.map(describeAttachment)).toContain(`attached ${shot} (image, 4×4)`);
    const wholePromptTyped = await attachMentions(`look at @${shot}`, where, { images });
    expect(wholePromptTyped.reports.map(describeAttachment)).toEqual([`attached ${shot} (image, 4×4)`]);
  });

  test("an attachment's line carries no escape sequence from a server's words (a resource's type, a prompt's resource URI)", async () => {
    const { resourceAttachment } = await import("../../lib/prompt/attach-resource.ts");
    const { report } = resourceAttachment("docs:x://a\x1b]0;t\x07", [{ uri: "x://a", mimeType: "text/plain\x1b[2J", text: "hi" }]);
    const line = describeAttachment(report);
    expect(line).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    expect(line).toStartWith("attached docs:x://a");
    expect(line).toEndWith("1 line)");
  });
});
