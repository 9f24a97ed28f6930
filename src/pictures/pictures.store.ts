import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { Deps } from "../deps";
import type { ProcessedPicture } from "./pictures.image";

export const IMAGE_ID = /^img_[A-Za-z0-9_-]{22}$/;
/** A processed picture's file in the desk's store (`deps.blobs`). */
export const imageKey = (id: string, size: 256 | 64): string => `images/${id}-${size}.png`;
/** Where the local store keeps it, for tests looking at the data dir; nothing here reads or writes through it. */
export const imagePath = (deps: Pick<Deps, "config">, id: string, size: 256 | 64): string =>
  join(deps.config.dataDir, imageKey(id, size));

/**
 * Writes both sizes under a new random id and answers the picture's URL. Ids are never reused, so a
 * stored picture never changes and may be cached for good.
 */
export async function storePicture(deps: Pick<Deps, "config" | "blobs">, picture: ProcessedPicture): Promise<string> {
  const id = `img_${randomBytes(16).toString("base64url")}`;
  await deps.blobs.put(imageKey(id, 256), picture.large, { contentType: "image/png" });
  await deps.blobs.put(imageKey(id, 64), picture.small, { contentType: "image/png" });
  return `${deps.config.baseUrl}/v1/images/${id}?s=256`;
}
