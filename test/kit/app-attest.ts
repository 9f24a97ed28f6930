import "reflect-metadata";
import { createHash, createPrivateKey, sign, type KeyObject } from "node:crypto";
import * as x509 from "@peculiar/x509";
import { isoCBOR } from "@simplewebauthn/server/helpers";

x509.cryptoProvider.set(crypto);

const sha256 = (...parts: Uint8Array[]) => {
  const hash = createHash("sha256");
  for (const p of parts) hash.update(p);
  return hash.digest();
};
const ecdsa = (namedCurve: "P-256" | "P-384") =>
  crypto.subtle.generateKey({ name: "ECDSA", namedCurve }, true, ["sign", "verify"]) as Promise<CryptoKeyPair>;

/** DER of the App Attest nonce extension value: SEQUENCE { [1] EXPLICIT OCTET STRING (32 bytes) }. */
const nonceExtension = (nonce: Buffer) =>
  new Uint8Array(Buffer.concat([Buffer.from([0x30, 0x24, 0xa1, 0x22, 0x04, 0x20]), nonce]));

export type DeviceKey = { keyId: string; privateKey: KeyObject; raw: Buffer };

/**
 * Stands in for Apple in tests: its own root CA (P-384, like Apple's) and intermediate, issuing
 * App Attest credential certificates for device keys exactly in Apple's layout. Each knob breaks
 * one of the checks the server must make.
 */
export class FakeAppAttest {
  private constructor(
    readonly rootPem: string,
    private readonly intermediate: { cert: x509.X509Certificate; keys: CryptoKeyPair },
  ) {}

  static async create(): Promise<FakeAppAttest> {
    const rootKeys = await ecdsa("P-384");
    const now = Date.now();
    const root = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: "01",
      name: "CN=Test App Attestation Root CA, O=Desk Tests",
      notBefore: new Date(now - 86_400_000),
      notAfter: new Date(now + 10 * 365 * 86_400_000),
      keys: rootKeys,
      signingAlgorithm: { name: "ECDSA", hash: "SHA-384" },
      extensions: [new x509.BasicConstraintsExtension(true, undefined, true)],
    });
    const interKeys = await ecdsa("P-384");
    const inter = await x509.X509CertificateGenerator.create({
      serialNumber: "02",
      subject: "CN=Test App Attestation CA 1, O=Desk Tests",
      issuer: root.subject,
      notBefore: new Date(now - 86_400_000),
      notAfter: new Date(now + 5 * 365 * 86_400_000),
      publicKey: interKeys.publicKey,
      signingKey: rootKeys.privateKey,
      signingAlgorithm: { name: "ECDSA", hash: "SHA-384" },
      extensions: [new x509.BasicConstraintsExtension(true, 0, true)],
    });
    return new FakeAppAttest(root.toString("pem"), { cert: inter, keys: interKeys });
  }

  /** A new Secure Enclave key (generateKey). */
  async newKey(): Promise<DeviceKey> {
    const keys = await ecdsa("P-256");
    const raw = Buffer.from(await crypto.subtle.exportKey("raw", keys.publicKey));
    const pkcs8 = Buffer.from(await crypto.subtle.exportKey("pkcs8", keys.privateKey));
    return {
      keyId: sha256(raw).toString("base64"),
      privateKey: createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" }),
      raw,
      ...{ cryptoKeys: keys },
    } as DeviceKey & { cryptoKeys: CryptoKeyPair };
  }

  /** attestKey(keyId, SHA256(challenge)): the attestation object, base64. */
  async attest(
    key: DeviceKey,
    challenge: string,
    appId: string,
    knobs: {
      counter?: number;
      aaguid?: Buffer;
      nonceFor?: string;
      credentialId?: Buffer;
      selfIssued?: boolean;
      expired?: boolean;
      fmt?: string;
    } = {},
  ): Promise<string> {
    const idBytes = Buffer.from(key.keyId, "base64");
    const credentialId = knobs.credentialId ?? idBytes;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(knobs.counter ?? 0);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      sha256(Buffer.from(appId)),
      Buffer.from([0x40]),
      counter,
      knobs.aaguid ?? Buffer.from("appattestdevelop"),
      idLength,
      credentialId,
      Buffer.from(isoCBOR.encode(new Map<number, number>([[1, 2]]))),
    ]);
    const nonce = sha256(authData, sha256(Buffer.from(knobs.nonceFor ?? challenge)));
    const { cryptoKeys } = key as DeviceKey & { cryptoKeys: CryptoKeyPair };
    const now = Date.now();
    const signer = knobs.selfIssued ? await ecdsa("P-384") : this.intermediate.keys;
    const credential = await x509.X509CertificateGenerator.create({
      serialNumber: "03",
      subject: `CN=${sha256(Buffer.from(key.keyId)).toString("hex")}, OU=AAA Certification, O=Desk Tests`,
      issuer: this.intermediate.cert.subject,
      notBefore: new Date(now - (knobs.expired ? 3 : 1) * 86_400_000),
      notAfter: new Date(now + (knobs.expired ? -86_400_000 : 30 * 86_400_000)),
      publicKey: cryptoKeys.publicKey,
      signingKey: signer.privateKey,
      signingAlgorithm: { name: "ECDSA", hash: "SHA-256" },
      extensions: [new x509.Extension("1.2.840.113635.100.8.2", false, nonceExtension(nonce))],
    });
    const object = new Map<string, string | Uint8Array | Map<string, Uint8Array | Uint8Array[]>>([
      ["fmt", knobs.fmt ?? "apple-appattest"],
      [
        "attStmt",
        new Map<string, Uint8Array | Uint8Array[]>([
          ["x5c", [new Uint8Array(credential.rawData), new Uint8Array(this.intermediate.cert.rawData)]],
          ["receipt", new Uint8Array(Buffer.from("receipt"))],
        ]),
      ],
      ["authData", new Uint8Array(authData)],
    ]);
    return Buffer.from(isoCBOR.encode(object)).toString("base64");
  }

  /** generateAssertion(keyId, SHA256(clientData)): the assertion object, base64. */
  assert(key: DeviceKey, clientData: Buffer, appId: string, counter: number, knobs: { signer?: KeyObject } = {}) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const authenticatorData = Buffer.concat([sha256(Buffer.from(appId)), Buffer.from([0x40]), count]);
    const nonce = sha256(authenticatorData, sha256(clientData));
    const signature = sign("sha256", nonce, knobs.signer ?? key.privateKey);
    return Buffer.from(
      isoCBOR.encode(
        new Map<string, Uint8Array>([
          ["signature", new Uint8Array(signature)],
          ["authenticatorData", new Uint8Array(authenticatorData)],
        ]),
      ),
    ).toString("base64");
  }
}
