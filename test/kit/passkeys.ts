import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/**
 * A software authenticator for API tests: one ES256 discoverable credential, answering
 * navigator.credentials.create()/get() the way a browser would serialise them (the JSON that
 * @simplewebauthn/browser returns). Each knob breaks one thing a server must check.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly cose: Uint8Array;
  counter = 0;
  userHandle: string | null = null;

  constructor(private readonly origin: string) {
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: "jwk" });
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]);
    this.cose = isoCBOR.encode(coseKey);
  }

  get id(): string {
    return b64(this.credentialId);
  }

  private authData(rpId: string, flags: number, attested: boolean): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const parts = [sha256(rpId), Buffer.from([flags]), counter];
    if (attested) {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), len, this.credentialId, Buffer.from(this.cose));
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, challenge: string, origin = this.origin): string {
    return b64(Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })));
  }

  /** The RegistrationResponseJSON for creation options from the server. */
  create(
    options: { challenge: string; rp: { id: string }; user: { id: string } },
    knobs: { uv?: boolean; origin?: string; rpId?: string } = {},
  ) {
    this.userHandle = options.user.id;
    const flags = 0x01 | (knobs.uv === false ? 0 : 0x04) | 0x40;
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<number, number> | Uint8Array>([
        ["fmt", "none"],
        ["attStmt", new Map<number, number>()],
        ["authData", this.authData(knobs.rpId ?? options.rp.id, flags, true)],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: this.clientData("webauthn.create", options.challenge, knobs.origin),
        attestationObject: b64(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform" as const,
    };
  }

  /** The AuthenticationResponseJSON for request options; the counter rises by one unless told otherwise. */
  get(
    options: { challenge: string; rpId: string },
    knobs: { uv?: boolean; origin?: string; counter?: number; userHandle?: string | null } = {},
  ) {
    this.counter = knobs.counter ?? this.counter + 1;
    const flags = 0x01 | (knobs.uv === false ? 0 : 0x04);
    const authenticatorData = this.authData(options.rpId, flags, false);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, knobs.origin);
    const signature = sign(
      "sha256",
      Buffer.concat([authenticatorData, sha256(Buffer.from(clientDataJSON, "base64url"))]),
      this.privateKey,
    );
    const userHandle = knobs.userHandle === undefined ? this.userHandle : knobs.userHandle;
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      response: {
        clientDataJSON,
        authenticatorData: b64(authenticatorData),
        signature: b64(signature),
        ...(userHandle ? { userHandle } : {}),
      },
      clientExtensionResults: {},
    };
  }
}
