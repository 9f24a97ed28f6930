import { invalidAt, tooLarge } from "../lib/errors";

/** Room for the multipart boundaries and part headers around the file itself. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * Reads multipart field `file` of an upload while the body streams and stops at the limit, so a
 * huge body costs at most the limit in memory (a declared Content-Length over it is refused before
 * reading anything). `noun` names the file in the messages ("picture", "file").
 */
export async function readUploadedFile(
  request: Request,
  limit: { maxBytes: number; tooLarge: string; noun: string },
): Promise<File> {
  const type = request.headers.get("content-type") ?? "";
  const notMultipart = () => invalidAt("body", `Send multipart/form-data with the ${limit.noun} in field \`file\`.`);
  const noFile = () => invalidAt("body.file", `Field \`file\` must hold a ${limit.noun}.`);
  if (!type.startsWith("multipart/form-data")) throw notMultipart();
  const cap = limit.maxBytes + ENVELOPE_BYTES;
  if (Number(request.headers.get("content-length") ?? 0) > cap) throw tooLarge(limit.tooLarge);
  if (!request.body) throw noFile();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel();
      throw tooLarge(limit.tooLarge);
    }
    chunks.push(value);
  }
  let form: FormData;
  try {
    form = await new Response(Buffer.concat(chunks), { headers: { "content-type": type } }).formData();
  } catch {
    throw notMultipart();
  }
  const file = form.get("file");
  if (!(file instanceof File)) throw noFile();
  if (file.size > limit.maxBytes) throw tooLarge(limit.tooLarge);
  return file;
}
