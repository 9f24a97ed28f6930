import { readUploadedFile } from "../http/multipart";
import { DeskError } from "../lib/errors";
import { loadSharp } from "./pictures.native";

export const MAX_PICTURE_BYTES = 5 * 1024 * 1024;
const MAX_SIDE = 4096;
const MAX_PIXELS = 16_000_000;
const MIN_SIDE = 16;
/** Room for the multipart envelope (boundaries, part headers) around a file at the limit. */

export type PictureFit = "cover" | "contain";
export type ProcessedPicture = { large: Uint8Array; small: Uint8Array };

const unsupported = () =>
  new DeskError(422, "unsupported_image", "Send a PNG, JPEG, GIF or WebP picture (SVG and other types are refused).");
const outOfBounds = (detail: string) => new DeskError(422, "image_too_large", detail);

/** The bytes of the picture in multipart field `file`, read capped while the body streams. */
export async function readPictureUpload(request: Request): Promise<Uint8Array> {
  const file = await readUploadedFile(request, {
    maxBytes: MAX_PICTURE_BYTES,
    tooLarge: "The picture is over 5 MB.",
    noun: "picture",
  });
  return new Uint8Array(await file.arrayBuffer());
}

type Format = "png" | "jpeg" | "gif" | "webp";

/** The format from the content's magic bytes only: the name and declared type are the sender's word. */
export function sniffPicture(b: Uint8Array): Format | null {
  const at = (offset: number, bytes: number[]) => bytes.every((v, i) => b[offset + i] === v);
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (at(0, [0xff, 0xd8, 0xff])) return "jpeg";
  if (at(0, [0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) return "gif";
  if (at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50])) return "webp";
  return null;
}

/**
 * Checks the picture's type and size from its header, then decodes it (EXIF orientation applied,
 * first frame only), crops to a square (`cover`) or fits it in one (`contain`, for logos) and
 * re-encodes 256 and 64 px PNGs; sharp writes no metadata unless asked, so EXIF and GPS are gone.
 */
export async function processPicture(bytes: Uint8Array, fit: PictureFit, dataDir: string): Promise<ProcessedPicture> {
  const format = sniffPicture(bytes);
  if (!format) throw unsupported();
  const sharp = await loadSharp(dataDir);
  const options = { limitInputPixels: MAX_PIXELS, failOn: "error", animated: false } as const;
  let width: number;
  let height: number;
  try {
    // metadata() reads the header only: a decompression bomb is refused here without being decoded.
    const meta = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
    if (meta.format !== format && !(format === "jpeg" && meta.format === "jpeg")) throw unsupported();
    width = meta.width ?? 0;
    height = meta.pageHeight ?? meta.height ?? 0;
  } catch (error) {
    if (error instanceof DeskError) throw error;
    throw unsupported();
  }
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS)
    throw outOfBounds("The picture is over 4096 px a side or 16 megapixels.");
  if (width < MIN_SIDE || height < MIN_SIDE) throw outOfBounds("The picture is under 16 px a side.");
  const resize = (size: number) =>
    sharp(bytes, options)
      .rotate()
      .resize(size, size, { fit, background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .png()
      .toBuffer();
  try {
    const [large, small] = await Promise.all([resize(256), resize(64)]);
    return { large: new Uint8Array(large), small: new Uint8Array(small) };
  } catch {
    throw unsupported();
  }
}
