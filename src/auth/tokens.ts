import { SignJWT, jwtVerify, type JWTPayload } from "jose";
import { deriveKey } from "../lib/crypto";

/** Every JWT names its purpose; each consumer accepts exactly one. */
export type TokenPurpose =
  | "access"
  | "mfa"
  | "ws"
  | "widget_ws"
  | "attachment"
  | "invitation"
  | "oauth_state"
  | "approval";

export const TOKEN_TTL_SECONDS: Record<TokenPurpose, number> = {
  access: 15 * 60,
  mfa: 5 * 60,
  ws: 5 * 60,
  widget_ws: 5 * 60,
  attachment: 5 * 60,
  invitation: 7 * 24 * 3600,
  oauth_state: 10 * 60,
  approval: 15 * 60,
};

export type TokenService = {
  sign(purpose: TokenPurpose, claims: Record<string, unknown>, ttlSeconds?: number): Promise<string>;
  verify<T extends Record<string, unknown>>(token: string, purpose: TokenPurpose): Promise<(T & JWTPayload) | null>;
};

/** Verified tokens kept; past this the cache starts over (an access token lives 15 minutes). */
const VERIFIED_MAX = 5_000;

/** `now` is the desk's clock: tokens are stamped and checked against it. */
export function createTokenService(secret: string, now: () => Date): TokenService {
  const raw = new Uint8Array(deriveKey(secret, "jwt-hs256"));
  // Given raw bytes, jose imports a CryptoKey on every sign and verify (a WebCrypto call per
  // request that carries an access token): import it once, on first use.
  let imported: Promise<CryptoKey> | undefined;
  // Tokens whose signature checked out, by their exact text: the app sends its access token with
  // every request, and checking the signature (jose's parsing and a WebCrypto HMAC) was most of such
  // a request's cost (GET /v1/me at a fifth of an API key's rate). The same text verifies the same
  // way, so a hit rechecks only the expiry; whatever else a token grants (its session still live)
  // is checked by its consumer on every use, as before.
  const verified = new Map<string, JWTPayload>();
  const keyOf = () =>
    (imported ??= crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]));
  return {
    async sign(purpose, claims, ttlSeconds = TOKEN_TTL_SECONDS[purpose]) {
      const issuedAt = Math.floor(now().getTime() / 1000);
      return new SignJWT({ ...claims, purpose })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttlSeconds)
        .sign(await keyOf());
    },
    async verify(token, purpose) {
      const at = now();
      let payload = verified.get(token);
      if (payload && typeof payload.exp === "number" && payload.exp * 1000 <= at.getTime()) {
        verified.delete(token);
        return null;
      }
      if (!payload) {
        try {
          payload = (await jwtVerify(token, await keyOf(), { algorithms: ["HS256"], currentDate: at })).payload;
        } catch {
          return null;
        }
        if (verified.size >= VERIFIED_MAX) verified.clear();
        verified.set(token, payload);
      }
      return payload.purpose === purpose ? (payload as never) : null;
    },
  };
}
