import { createHash, createPublicKey, verify as verifySignature, X509Certificate } from "node:crypto";
import { decodePartialCBOR } from "@levischuck/tiny-cbor";

/**
 * Apple App Attest (DeviceCheck), checked as Apple documents it ("Validating apps that connect to
 * your server"): an attestation registers a key generated in the device's Secure Enclave for one
 * app; later assertions signed by that key prove a request comes from a genuine copy of the app.
 * No maintained JavaScript library covers the server side, so the steps are implemented here with
 * Node's X.509, a CBOR decoder and an ASN.1 parser.
 */

/**
 * Apple App Attestation Root CA (ECDSA P-384, valid 2020-03-18 to 2045-03-15), from
 * https://www.apple.com/certificateauthority/Apple_App_Attestation_Root_CA.pem
 * SHA-256 fingerprint 1C:B9:82:3B:A2:8B:A6:AD:2D:33:A0:06:94:1D:E2:AE:4F:51:3E:F1:D4:E8:31:B9:F7:E0:FA:7B:62:42:C9:32
 * (app-attest.test.ts checks it).
 */
export const APPLE_APP_ATTEST_ROOT = `-----BEGIN CERTIFICATE-----
MIICITCCAaegAwIBAgIQC/O+DvHN0uD7jG5yH2IXmDAKBggqhkjOPQQDAzBSMSYw
JAYDVQQDDB1BcHBsZSBBcHAgQXR0ZXN0YXRpb24gUm9vdCBDQTETMBEGA1UECgwK
QXBwbGUgSW5jLjETMBEGA1UECAwKQ2FsaWZvcm5pYTAeFw0yMDAzMTgxODMyNTNa
Fw00NTAzMTUwMDAwMDBaMFIxJjAkBgNVBAMMHUFwcGxlIEFwcCBBdHRlc3RhdGlv
biBSb290IENBMRMwEQYDVQQKDApBcHBsZSBJbmMuMRMwEQYDVQQIDApDYWxpZm9y
bmlhMHYwEAYHKoZIzj0CAQYFK4EEACIDYgAERTHhmLW07ATaFQIEVwTtT4dyctdh
NbJhFs/Ii2FdCgAHGbpphY3+d8qjuDngIN3WVhQUBHAoMeQ/cLiP1sOUtgjqK9au
Yen1mMEvRq9Sk3Jm5X8U62H+xTD3FE9TgS41o0IwQDAPBgNVHRMBAf8EBTADAQH/
MB0GA1UdDgQWBBSskRBTM72+aEH/pwyp5frq5eWKoTAOBgNVHQ8BAf8EBAMCAQYw
CgYIKoZIzj0EAwMDaAAwZQIwQgFGnByvsiVbpTKwSga0kP0e8EeDS4+sQmTvb7vn
53O5+FRXgeLhpJ06ysC5PrOyAjEAp5U4xDgEgllF7En3VcE3iexZZtKeYnpqtijV
oyFraWVIyd/dganmrduC1bmTBGwD
-----END CERTIFICATE-----
`;

/** The extension of the credential certificate that carries the nonce. */
const NONCE_OID = "1.2.840.113635.100.8.2";
const AAGUID_PRODUCTION = Buffer.concat([Buffer.from("appattest"), Buffer.alloc(7)]);
const AAGUID_DEVELOPMENT = Buffer.from("appattestdevelop");

export class AppAttestError extends Error {}
const fail = (message: string): never => {
  throw new AppAttestError(message);
};

const sha256 = (...parts: Uint8Array[]) => {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest();
};

type AuthData = { rpIdHash: Buffer; flags: number; counter: number; aaguid?: Buffer; credentialId?: Buffer };

function parseAuthData(data: Buffer, attested: boolean): AuthData {
  if (data.length < 37) fail("authenticator data is too short");
  const out: AuthData = { rpIdHash: data.subarray(0, 32), flags: data[32]!, counter: data.readUInt32BE(33) };
  if (attested) {
    if (data.length < 55) fail("authenticator data has no attested credential");
    out.aaguid = data.subarray(37, 53);
    const length = data.readUInt16BE(53);
    if (data.length < 55 + length) fail("authenticator data is truncated");
    out.credentialId = data.subarray(55, 55 + length);
  }
  return out;
}

function decodeMap(bytes: Buffer, what: string): Map<string, unknown> {
  let decoded: unknown;
  try {
    [decoded] = decodePartialCBOR(new Uint8Array(bytes), 0);
  } catch {
    return fail(`${what} is not CBOR`);
  }
  if (!(decoded instanceof Map)) fail(`${what} is not a CBOR map`);
  return decoded as Map<string, unknown>;
}

const bytesOf = (value: unknown, what: string): Buffer =>
  value instanceof Uint8Array ? Buffer.from(value) : fail(`${what} is missing`);

/** The nonce inside the credential certificate's extension 1.2.840.113635.100.8.2: SEQUENCE { [1] OCTET STRING }. */
async function nonceOf(certificate: Buffer): Promise<Buffer> {
  const [{ AsnConvert }, { Certificate }, asn1js] = await Promise.all([
    import("@peculiar/asn1-schema"),
    import("@peculiar/asn1-x509"),
    import("asn1js"),
  ]);
  const parsed = AsnConvert.parse(certificate, Certificate);
  const extension = parsed.tbsCertificate.extensions?.find((e) => e.extnID === NONCE_OID);
  if (!extension) return fail("the credential certificate has no nonce extension");
  const inner = asn1js.fromBER(extension.extnValue.buffer);
  const sequence = inner.result;
  if (inner.offset === -1 || !(sequence instanceof asn1js.Sequence)) return fail("the nonce extension is malformed");
  const tagged = sequence.valueBlock.value.find((v) => v.idBlock.tagClass === 3 && v.idBlock.tagNumber === 1);
  const octets = tagged instanceof asn1js.Constructed ? tagged.valueBlock.value[0] : undefined;
  if (!(octets instanceof asn1js.OctetString)) return fail("the nonce extension is malformed");
  return Buffer.from(octets.valueBlock.valueHexView);
}

/** Each certificate is issued and signed by the next, the last by one of the roots, all valid at `now`. */
function verifyChain(chain: X509Certificate[], roots: X509Certificate[], now: Date) {
  const valid = (c: X509Certificate) => new Date(c.validFrom) <= now && now <= new Date(c.validTo);
  for (let i = 0; i < chain.length; i++) {
    const cert = chain[i]!;
    if (!valid(cert)) fail("a certificate of the chain is expired or not yet valid");
    const issuer = chain[i + 1];
    if (issuer) {
      if (!cert.checkIssued(issuer) || !cert.verify(issuer.publicKey)) fail("the certificate chain is broken");
      continue;
    }
    const root = roots.find((r) => cert.checkIssued(r) && cert.verify(r.publicKey) && valid(r));
    if (!root) fail("the certificate chain does not lead to the App Attest root");
  }
}

export type AttestedKey = {
  keyId: string;
  appId: string;
  publicKeyPem: string;
  receipt: Buffer;
  environment: "production" | "development";
};

/**
 * Apple's steps 1 to 9 for an attestation object (base64 CBOR) of `keyId` (base64) made over
 * SHA256(challenge): chain to the root, nonce = SHA256(authData ‖ clientDataHash) in the certificate,
 * the key's hash is the key id, the RP ID hash is one of our app ids, counter 0, App Attest AAGUID,
 * credential id = key id.
 */
export async function verifyAttestation(input: {
  keyId: string;
  attestation: string;
  challenge: string;
  appIds: readonly string[];
  roots: readonly string[];
  now: Date;
}): Promise<AttestedKey> {
  const object = decodeMap(Buffer.from(input.attestation, "base64"), "the attestation");
  if (object.get("fmt") !== "apple-appattest") fail("the attestation format is not apple-appattest");
  const statement = object.get("attStmt");
  if (!(statement instanceof Map)) return fail("the attestation statement is missing");
  const x5c = statement.get("x5c");
  if (!Array.isArray(x5c) || x5c.length < 1) return fail("the attestation has no certificates");
  const authDataRaw = bytesOf(object.get("authData"), "authData");
  let chain: X509Certificate[];
  try {
    chain = x5c.map((der, i) => new X509Certificate(bytesOf(der, `x5c[${i}]`)));
  } catch (error) {
    if (error instanceof AppAttestError) throw error;
    return fail("a certificate of the attestation cannot be read");
  }
  // 1. The chain leads to Apple's App Attest root.
  verifyChain(
    chain,
    input.roots.map((pem) => new X509Certificate(pem)),
    input.now,
  );
  // 2-4. nonce = SHA256(authData ‖ SHA256(challenge)) equals the certificate's extension.
  const nonce = sha256(authDataRaw, sha256(Buffer.from(input.challenge)));
  const certified = await nonceOf(Buffer.from(chain[0]!.raw));
  if (certified.length !== 32 || !certified.equals(nonce)) fail("the nonce does not match the challenge");
  // 5. The key id is the SHA-256 of the credential's public key (uncompressed EC point).
  const publicKey = chain[0]!.publicKey;
  const jwk = publicKey.export({ format: "jwk" });
  if (jwk.crv !== "P-256" || !jwk.x || !jwk.y) return fail("the credential key is not P-256");
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, "base64url"), Buffer.from(jwk.y, "base64url")]);
  const keyId = Buffer.from(input.keyId, "base64");
  if (!sha256(point).equals(keyId)) fail("the key id is not the hash of the certified key");
  const authData = parseAuthData(authDataRaw, true);
  // 6. The RP ID hash is one of our app ids (team id + "." + bundle id).
  const appId = input.appIds.find((id) => sha256(Buffer.from(id)).equals(authData.rpIdHash));
  if (!appId) fail("the attestation is for another app");
  // 7. A new key has signed nothing yet.
  if (authData.counter !== 0) fail("the counter of a new key is not 0");
  // 8. Production or development App Attest environment.
  const environment = authData.aaguid!.equals(AAGUID_PRODUCTION)
    ? "production"
    : authData.aaguid!.equals(AAGUID_DEVELOPMENT)
      ? "development"
      : fail("the AAGUID is not App Attest's");
  // 9. The credential id is the key id.
  if (!authData.credentialId!.equals(keyId)) fail("the credential id is not the key id");
  return {
    keyId: input.keyId,
    appId: appId!,
    publicKeyPem: publicKey.export({ format: "pem", type: "spki" }).toString(),
    receipt:
      statement.get("receipt") instanceof Uint8Array
        ? Buffer.from(statement.get("receipt") as Uint8Array)
        : Buffer.alloc(0),
    environment,
  };
}

/**
 * Apple's assertion steps: nonce = SHA256(authenticatorData ‖ SHA256(clientData)) is signed by the
 * registered key, the RP ID hash is the key's app, and the counter rose. Answers the new counter.
 */
export function verifyAssertion(input: {
  assertion: string;
  clientData: Buffer;
  publicKeyPem: string;
  appId: string;
  counter: number;
}): number {
  const object = decodeMap(Buffer.from(input.assertion, "base64"), "the assertion");
  const signature = bytesOf(object.get("signature"), "signature");
  const authenticatorData = bytesOf(object.get("authenticatorData"), "authenticatorData");
  const nonce = sha256(authenticatorData, sha256(input.clientData));
  let signed = false;
  try {
    signed = verifySignature("sha256", nonce, createPublicKey(input.publicKeyPem), signature);
  } catch {
    signed = false;
  }
  if (!signed) fail("the assertion signature is not valid");
  const authData = parseAuthData(authenticatorData, false);
  if (!sha256(Buffer.from(input.appId)).equals(authData.rpIdHash)) fail("the assertion is for another app");
  if (authData.counter <= input.counter) fail("the assertion counter did not rise");
  return authData.counter;
}
