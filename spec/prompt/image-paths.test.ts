// A path dropped into the terminal (lib/prompt/image-paths.ts): quoted, with escaped spaces, or a file:// URL.
import { expect, test } from "bun:test";
import { pastedImagePaths } from "../../lib/prompt/image-paths.ts";

test("quoted, escaped, ~/ and file:// paths to images are found, unquoted and unescaped; prose and other files are not", () => {
  const prompt = `fix this '/tmp/a b/Shot 1.png' and /Users/me/Desktop/Screen\\ Shot\\ 2.PNG, "/tmp/c.jpg" ~/d.webp file:///tmp/e%20f.gif (see x/y.png, /tmp/notes.txt)`;
  expect(pastedImagePaths(prompt, "/home/me").map((p) => p.path)).toEqual([
    "/tmp/a b/Shot 1.png",
    "/Users/me/Desktop/Screen Shot 2.PNG",
    "/tmp/c.jpg",
    "/home/me/d.webp",
    "/tmp/e f.gif",
  ]);
});

test("after @ a quoted path is found too, and each path once", () => {
  expect(pastedImagePaths(`@'/tmp/My Shot.png' and again '/tmp/My Shot.png'`, "/h").map((p) => p.path)).toEqual(["/tmp/My Shot.png"]);
});

test("a Windows drive path, bare or quoted, keeps its backslashes", () => {
  expect(pastedImagePaths(`see C:\\Users\\me\\shot.png, and "D:\\My Pictures\\a b.jpg"`, "C:\\Users\\me").map((p) => p.path)).toEqual(["C:\\Users\\me\\shot.png", "D:\\My Pictures\\a b.jpg"]);
});
