import { createChallenge, verifySolution } from "altcha-lib";
import { deriveKey as deriveSha } from "altcha-lib/algorithms/sha";
import { z } from "zod";
import type { Deps } from "../deps";
import { deskState } from "../db/desk-state";
import { systemClock } from "../lib/clock";
import { deriveKey } from "../lib/crypto";

/**
 * The contact form's proof-of-work: an ALTCHA SHA-256 puzzle (the kind sign-in uses), signed with a
 * key derived from DESK_SECRET, embedded in the form page, solved by the page's script in well under
 * a second and accepted once. A bot posting the form without running the page pays for every try.
 */
export const CONTACT_CHALLENGE_TTL_MS = 10 * 60_000;
const DIFFICULTY = { algorithm: "SHA-256", cost: 1, keyPrefix: "0000" } as const;
/** Accepted signatures kept until they expire; bounded so a flood of solved puzzles cannot grow memory. */
const MAX_SPENT = 50_000;

const Answer = z.object({
  challenge: z.object({
    // Checked against their signature by altcha; these bounds only keep junk out of the check.
    parameters: z.object({
      algorithm: z.string().max(20),
      nonce: z.string().max(200),
      salt: z.string().max(200),
      cost: z.number().int().min(1).max(10),
      keyLength: z.number().int().min(1).max(64),
      keyPrefix: z.string().max(64),
      expiresAt: z.number().optional(),
    }),
    signature: z.string().max(200),
  }),
  solution: z.object({ counter: z.number().int().min(0), derivedKey: z.string().max(200) }),
});

const spentOf = deskState("portal.spent-challenges", () => new Map<string, number>());
const secretOf = (deps: Pick<Deps, "config">) =>
  deriveKey(deps.config.secret, "contact-form-challenge").toString("hex");

/** A fresh challenge as the form carries it (JSON in a data attribute). */
export async function issueContactChallenge(deps: Pick<Deps, "config">): Promise<string> {
  // altcha checks expiry against the system time, so challenges are stamped with it too.
  const challenge = await createChallenge({
    ...DIFFICULTY,
    deriveKey: deriveSha,
    expiresAt: new Date(systemClock.now().getTime() + CONTACT_CHALLENGE_TTL_MS),
    hmacSignatureSecret: secretOf(deps),
  });
  return JSON.stringify({ parameters: { ...challenge.parameters }, signature: challenge.signature ?? "" });
}

/** True once for the form's field holding a correctly solved, unexpired challenge of ours. */
export async function acceptContactChallenge(deps: Pick<Deps, "config" | "db">, field: string): Promise<boolean> {
  let parsed: z.infer<typeof Answer>;
  try {
    parsed = Answer.parse(JSON.parse(field));
  } catch {
    return false;
  }
  const spent = spentOf(deps.db);
  const signature = parsed.challenge.signature;
  if (spent.has(signature)) return false;
  const result = await verifySolution({
    challenge: parsed.challenge,
    solution: parsed.solution,
    deriveKey: deriveSha,
    hmacSignatureSecret: secretOf(deps),
  }).catch(() => null);
  if (!result?.verified || result.expired) return false;
  if (spent.has(signature)) return false;
  const now = systemClock.now().getTime();
  for (const [key, expiresAt] of spent) if (expiresAt <= now || spent.size >= MAX_SPENT) spent.delete(key);
  spent.set(signature, now + CONTACT_CHALLENGE_TTL_MS);
  return true;
}

/**
 * The form's one script (served as a file: the pages' policy allows no inline script). It solves
 * the challenge in `data-challenge` as altcha-lib does (SHA-256 of salt ‖ nonce ‖ counter as a
 * big-endian uint32, until the key's hex starts with the prefix), in plain JS because WebCrypto
 * exists only on https and localhost, then fills the hidden `altcha` field and enables sending.
 */
export const SOLVER_JS = `"use strict";
(function () {
  var K = new Uint32Array([0x428a2f98,0x71374491,0xb5c0fbcf,0xe9b5dba5,0x3956c25b,0x59f111f1,0x923f82a4,0xab1c5ed5,0xd807aa98,0x12835b01,0x243185be,0x550c7dc3,0x72be5d74,0x80deb1fe,0x9bdc06a7,0xc19bf174,0xe49b69c1,0xefbe4786,0x0fc19dc6,0x240ca1cc,0x2de92c6f,0x4a7484aa,0x5cb0a9dc,0x76f988da,0x983e5152,0xa831c66d,0xb00327c8,0xbf597fc7,0xc6e00bf3,0xd5a79147,0x06ca6351,0x14292967,0x27b70a85,0x2e1b2138,0x4d2c6dfc,0x53380d13,0x650a7354,0x766a0abb,0x81c2c92e,0x92722c85,0xa2bfe8a1,0xa81a664b,0xc24b8b70,0xc76c51a3,0xd192e819,0xd6990624,0xf40e3585,0x106aa070,0x19a4c116,0x1e376c08,0x2748774c,0x34b0bcb5,0x391c0cb3,0x4ed8aa4a,0x5b9cca4f,0x682e6ff3,0x748f82ee,0x78a5636f,0x84c87814,0x8cc70208,0x90befffa,0xa4506ceb,0xbef9a3f7,0xc67178f2]);
  var W = new Uint32Array(64);
  function rotr(x, n) { return (x >>> n) | (x << (32 - n)); }
  function sha256(bytes) {
    var len = bytes.length, blocks = ((len + 9 + 63) >> 6) << 6, m = new Uint8Array(blocks);
    m.set(bytes); m[len] = 0x80;
    var bits = len * 8; m[blocks - 4] = bits >>> 24; m[blocks - 3] = bits >>> 16; m[blocks - 2] = bits >>> 8; m[blocks - 1] = bits;
    var h0 = 0x6a09e667, h1 = 0xbb67ae85, h2 = 0x3c6ef372, h3 = 0xa54ff53a, h4 = 0x510e527f, h5 = 0x9b05688c, h6 = 0x1f83d9ab, h7 = 0x5be0cd19;
    for (var o = 0; o < blocks; o += 64) {
      for (var i = 0; i < 16; i++) W[i] = (m[o + 4 * i] << 24) | (m[o + 4 * i + 1] << 16) | (m[o + 4 * i + 2] << 8) | m[o + 4 * i + 3];
      for (i = 16; i < 64; i++) {
        var s0 = rotr(W[i - 15], 7) ^ rotr(W[i - 15], 18) ^ (W[i - 15] >>> 3);
        var s1 = rotr(W[i - 2], 17) ^ rotr(W[i - 2], 19) ^ (W[i - 2] >>> 10);
        W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
      }
      var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7;
      for (i = 0; i < 64; i++) {
        var t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
        var t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      h0 = (h0 + a) | 0; h1 = (h1 + b) | 0; h2 = (h2 + c) | 0; h3 = (h3 + d) | 0; h4 = (h4 + e) | 0; h5 = (h5 + f) | 0; h6 = (h6 + g) | 0; h7 = (h7 + h) | 0;
    }
    return [h0, h1, h2, h3, h4, h5, h6, h7];
  }
  function hex8(n) { return ("00000000" + (n >>> 0).toString(16)).slice(-8); }
  function bytesOf(hex) { var out = new Uint8Array(hex.length / 2); for (var i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16); return out; }
  var form = document.querySelector("form[data-challenge]");
  if (!form) return;
  var challenge = JSON.parse(form.getAttribute("data-challenge"));
  var p = challenge.parameters, salt = bytesOf(p.salt), nonce = bytesOf(p.nonce), prefix = p.keyPrefix;
  var input = new Uint8Array(salt.length + nonce.length + 4);
  input.set(salt); input.set(nonce, salt.length);
  var at = salt.length + nonce.length, counter = 0;
  function step() {
    for (var n = 0; n < 20000; n++, counter++) {
      input[at] = counter >>> 24; input[at + 1] = counter >>> 16; input[at + 2] = counter >>> 8; input[at + 3] = counter;
      var words = sha256(input), key = "";
      for (var j = 0; j < 8; j++) key += hex8(words[j]);
      if (key.indexOf(prefix) === 0) {
        form.querySelector("input[name=altcha]").value = JSON.stringify({ challenge: challenge, solution: { counter: counter, derivedKey: key } });
        form.setAttribute("data-solved", "");
        return;
      }
    }
    setTimeout(step, 0);
  }
  step();
  form.addEventListener("submit", function (event) {
    if (form.hasAttribute("data-solved")) return;
    event.preventDefault();
    var wait = setInterval(function () { if (form.hasAttribute("data-solved")) { clearInterval(wait); form.requestSubmit(); } }, 50);
  });
})();
`;
