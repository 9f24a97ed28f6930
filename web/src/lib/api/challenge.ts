import { sha256 } from "@noble/hashes/sha2.js";
import { solveChallenge, type Challenge, type DeriveKeyFunction } from "altcha-lib";
import { api, ApiError } from "./client";

/**
 * The challenge's SHA-256 key derivation (as altcha-lib's own: the hash of salt + counter, then of
 * the hash, `cost` times), in plain JS: WebCrypto exists only on https and localhost, and a desk
 * on a home network is often reached over plain http.
 */
const deriveKey: DeriveKeyFunction = async (parameters, salt, password) => {
  let key = new Uint8Array(salt.length + password.length);
  key.set(salt);
  key.set(password, salt.length);
  for (let i = 0; i < Math.max(1, parameters.cost); i++) key = sha256(key);
  return { derivedKey: key.subarray(0, parameters.keyLength || 32) };
};

/**
 * Sign-in calls (login, register) ask for a solved proof-of-work challenge after a few failures
 * (403 challenge_required). This sends `body`, and when asked, fetches a challenge, solves it in
 * the browser (well under a second) and sends again with it.
 */
export async function withChallenge<T>(path: string, body: Record<string, unknown>): Promise<T> {
  try {
    return await api<T>(path, { body, workspace: false });
  } catch (error) {
    if (!(error instanceof ApiError) || (error.code !== "challenge_required" && error.code !== "challenge_failed"))
      throw error;
    const { challenge } = await api<{ challenge: Challenge }>("/auth/challenge", { method: "POST", workspace: false });
    const solution = await solveChallenge({ challenge, deriveKey });
    if (!solution) throw error;
    return api<T>(path, { body: { ...body, challenge: { challenge, solution } }, workspace: false });
  }
}
