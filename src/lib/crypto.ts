import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";

export const sha256Hex = (value: string | Uint8Array): string => createHash("sha256").update(value).digest("hex");

export const hmacSha256Hex = (key: string | Uint8Array, value: string | Uint8Array): string =>
  createHmac("sha256", key).update(value).digest("hex");

/** Constant-time comparison of two strings (false when lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Derives a purpose-bound 32-byte key from the instance secret. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "desk", purpose, 32));
}

/**
 * AES-256-GCM box for secrets at rest (mailbox passwords, webhook signing secrets, widget secret).
 * Format: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 */
export type SecretBox = { seal(plain: string): string; open(sealed: string): string };

export function createSecretBox(secret: string): SecretBox {
  const key = deriveKey(secret, "secrets-at-rest");
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return [
        "v1",
        iv.toString("base64url"),
        cipher.getAuthTag().toString("base64url"),
        body.toString("base64url"),
      ].join(".");
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(".");
      if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("unreadable sealed secret");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}
