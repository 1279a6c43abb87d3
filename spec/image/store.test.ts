// $SHIRO_HOME/images (lib/image/store.ts): the images a session sent, kept by content. They are
// the user's screenshots: the folder and every file are the user's alone.
import { expect, test } from "bun:test";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { imagesDir, openImageStore } from "../../lib/image/store.ts";
import { makeTempDir } from "../support/temp-dirs.ts";
import { pngOf } from "../support/images.ts";

test("an image is kept once by its hash, in a folder of mode 0700 and a file of mode 0600, and read back", () => {
  const home = makeTempDir("shiro-home-");
  const store = openImageStore(home);
  const png = pngOf(3, 2);
  const ref = store.put(png, "image/png");
  expect(store.put(png, "image/png")).toBe(ref);
  expect(readdirSync(imagesDir(home))).toEqual([ref]);
  expect(statSync(imagesDir(home)).mode & 0o777).toBe(0o700);
  expect(statSync(join(imagesDir(home), ref)).mode & 0o777).toBe(0o600);
  expect(store.base64(ref)).toBe(Buffer.from(png).toString("base64"));
  expect(store.base64("../escape.png")).toBeUndefined();
});
