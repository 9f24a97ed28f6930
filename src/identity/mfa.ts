import * as OTPAuth from "otpauth";
import { randomBytes } from "node:crypto";
import { safeEqual, sha256Hex } from "../lib/crypto";

/** TOTP as authenticator apps expect it: SHA-1, 6 digits, 30 seconds; one step of clock drift allowed. */
const PERIOD_SECONDS = 30;
const DRIFT_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;

export const newTotpSecret = (): string => new OTPAuth.Secret({ size: 20 }).base32;

const totp = (secretBase32: string, label = "Desk") =>
  new OTPAuth.TOTP({
    issuer: "Desk",
    label,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });

export const otpauthUrl = (secretBase32: string, email: string): string => totp(secretBase32, email).toString();

/**
 * The time step a code belongs to, or null when it is wrong. A code whose step is not after
 * `lastStep` was already used (or is older than one that was): refused, so a seen code cannot be replayed.
 */
export function acceptTotp(secretBase32: string, code: string, now: Date, lastStep: number | null): number | null {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totp(secretBase32).validate({ token, timestamp: now.getTime(), window: DRIFT_STEPS });
  if (delta === null) return null;
  const step = Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const normalizeRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");

/** Ten single-use codes shown once (`xxxxx-xxxxx`, about 49 bits each) and their hashes to store. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  return { codes, hashes: codes.map((c) => sha256Hex(normalizeRecovery(c))) };
}

/** The stored hashes left after using `code`, or null when it is not one of them. */
export function useRecoveryCode(storedHashes: string | null, code: string): string[] | null {
  const normalized = normalizeRecovery(code);
  if (!storedHashes || !/^[a-z0-9]{10}$/.test(normalized)) return null;
  const hashes = JSON.parse(storedHashes) as string[];
  const wanted = sha256Hex(normalized);
  const index = hashes.findIndex((h) => safeEqual(h, wanted));
  return index < 0 ? null : hashes.filter((_, i) => i !== index);
}
