import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Deps } from "../deps";
import type { ProcessedPicture } from "./pictures.image";

export const IMAGE_ID = /^img_[A-Za-z0-9_-]{22}$/;
export const imagesDir = (deps: Pick<Deps, "config">): string => join(deps.config.dataDir, "images");
export const imagePath = (deps: Pick<Deps, "config">, id: string, size: 256 | 64): string =>
  join(imagesDir(deps), `${id}-${size}.png`);

/**
 * Writes both sizes under a new random id (owner-only files) and answers the picture's URL. Ids are
 * never reused, so a stored picture never changes and may be cached for good.
 */
export async function storePicture(deps: Pick<Deps, "config">, picture: ProcessedPicture): Promise<string> {
  const id = `img_${randomBytes(16).toString("base64url")}`;
  await mkdir(imagesDir(deps), { recursive: true, mode: 0o700 });
  await writeFile(imagePath(deps, id, 256), picture.large, { mode: 0o600 });
  await writeFile(imagePath(deps, id, 64), picture.small, { mode: 0o600 });
  return `${deps.config.baseUrl}/v1/images/${id}?s=256`;
}
