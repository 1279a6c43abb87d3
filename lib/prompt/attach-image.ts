import { imageBlock, type StoredImage } from "../image/part.ts";
import { fitImage, megabytes } from "../image/fit.ts";
import type { ImageInfo } from "../image/format.ts";
import { openImageStore, type ImageStore } from "../image/store.ts";

/** What attaching an image needs: where its bytes are kept, and the home a pasted `~/` path means. */
export type AttachImages = { store: Pick<ImageStore, "put">; home: string };

/** What attaching needs, for a session whose shiro home is `shiroHome` (the store's) and whose user's home is `userHome` (a pasted `~/`). */
export function attachImagesFor(shiroHome: string, userHome: string): AttachImages {
  return { store: openImageStore(shiroHome), home: userHome };
}

/** The most bytes of an image file read to attach it; a larger one is refused before it is read. */
export const MAX_IMAGE_FILE_BYTES = 64 * 1024 * 1024;

export type ImageAttachment = { attached: true; what: string; block: string } | { attached: false; why: string };

/**
 * An image file's bytes (`info`: what they are) attached: fitted to the size limits (fit.ts:
 * shrunk when it can be, refused with the limit named when not), kept in the store, and the
 * prompt's block for it (part.ts imageBlock), which the conversation turns into an image part.
 */
export async function attachImage(shown: string, bytes: Uint8Array, info: ImageInfo, images: AttachImages): Promise<ImageAttachment> {
  const fitted = await fitImage(bytes);
  if (!fitted.ok) return { attached: false, why: `${shown} ${fitted.why}` };
  const name = shown.split("/").pop() ?? shown;
  const stored: StoredImage = { ref: images.store.put(fitted.bytes, fitted.info.mediaType), mediaType: fitted.info.mediaType, name, width: fitted.info.width, height: fitted.info.height };
  const from = fitted.shrunkFrom;
  const what = from
    ? `image, shrunk from ${from.width}×${from.height} ${megabytes(from.bytes)} to ${fitted.info.width}×${fitted.info.height} ${megabytes(fitted.bytes.length)}`
    : `image, ${info.width}×${info.height}`;
  return { attached: true, what, block: imageBlock(shown, stored) };
}
