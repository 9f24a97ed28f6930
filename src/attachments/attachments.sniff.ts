/**
 * Content type from the first bytes, never from the client's claim: what the server says a
 * file is decides how browsers treat it. Unknown binary is application/octet-stream; text that
 * is valid UTF-8 without NULs is text/plain (never text/html: HTML is served only as a download).
 */
const SIGNATURES: Array<{ type: string; bytes: number[]; offset?: number }> = [
  { type: "image/png", bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: "image/jpeg", bytes: [0xff, 0xd8, 0xff] },
  { type: "image/gif", bytes: [0x47, 0x49, 0x46, 0x38] },
  { type: "application/pdf", bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { type: "application/zip", bytes: [0x50, 0x4b, 0x03, 0x04] },
  { type: "application/gzip", bytes: [0x1f, 0x8b] },
  { type: "image/bmp", bytes: [0x42, 0x4d] },
  { type: "audio/mpeg", bytes: [0x49, 0x44, 0x33] },
  { type: "video/mp4", bytes: [0x66, 0x74, 0x79, 0x70], offset: 4 },
];

const startsWith = (data: Uint8Array, bytes: number[], offset = 0) => bytes.every((b, i) => data[offset + i] === b);

export function sniffContentType(data: Uint8Array): string {
  for (const signature of SIGNATURES) if (startsWith(data, signature.bytes, signature.offset)) return signature.type;
  if (startsWith(data, [0x52, 0x49, 0x46, 0x46]) && startsWith(data, [0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  const head = data.subarray(0, 4096);
  if (head.includes(0)) return "application/octet-stream";
  try {
    // stream mode: a multi-byte character cut at the end of the sniffed prefix is not an error.
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return "text/plain";
  } catch {
    return "application/octet-stream";
  }
}
