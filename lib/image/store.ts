import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeStateFileSync } from "../fs/atomic-write.ts";
import { extensionOf, type ImageMediaType } from "./format.ts";

/** `$SHIRO_HOME/images`: every image a session sent, once each, named by its SHA-256. */
export function imagesDir(home: string): string {
  return join(home, "images");
}

/** A stored image's name: its SHA-256 and extension. Nothing else is ever read from the folder. */
const REF = /^[0-9a-f]{64}\.(png|jpg|gif|webp)$/;

export function isImageRef(ref: string): boolean {
  return REF.test(ref);
}

/**
 * Where the images a session sends are kept, so the session file holds a short reference
 * instead of the bytes (a 2 MB screenshot would otherwise be 2.7 MB of base64 in every save and
 * every fork). Stored by content: the same image attached twice, or by two sessions, is one file.
 */
export type ImageStore = {
  /** Keeps the bytes (once: a file of that name is already them) and returns their reference. */
  put(bytes: Uint8Array, mediaType: ImageMediaType): string;
  /** The image's bytes as base64, or undefined when it is not there (removed by hand). Read once per process. */
  base64(ref: string): string | undefined;
};

export function openImageStore(home: string): ImageStore {
  const dir = imagesDir(home);
  const cache = new Map<string, string>();
  return {
    put(bytes, mediaType) {
      const ref = `${createHash("sha256").update(bytes).digest("hex")}.${extensionOf(mediaType)}`;
      const path = join(dir, ref);
      if (!existsSync(path)) {
        mkdirSync(dir, { recursive: true, mode: 0o700 }); // the user's pictures: theirs alone, like the sessions
        writeStateFileSync(path, bytes);
      }
      return ref;
    },
    base64(ref) {
      if (!REF.test(ref)) return undefined;
      let known = cache.get(ref);
      if (known === undefined) {
        try {
          known = readFileSync(join(dir, ref)).toString("base64");
        } catch {
          return undefined;
        }
        cache.set(ref, known);
      }
      return known;
    },
  };
}
