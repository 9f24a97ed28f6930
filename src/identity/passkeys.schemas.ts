import { z } from "zod";

const B64 = z
  .string()
  .min(1)
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]+=*$/, "base64url");

export const PasskeySchema = z.object({
  id: z.string(),
  name: z.string(),
  device_type: z.enum(["singleDevice", "multiDevice"]).describe("multiDevice: a synced passkey"),
  backed_up: z.boolean(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});

export const PasskeyListSchema = z.object({ data: z.array(PasskeySchema) });

export const PasskeyParams = z.object({ id: z.string().min(1).max(64) });

const Name = z.string().trim().min(1).max(60);

/** What `navigator.credentials.create()` produced, as @simplewebauthn/browser's startRegistration returns it. */
const RegistrationCredential = z
  .object({
    id: B64,
    rawId: B64,
    type: z.literal("public-key"),
    response: z
      .object({
        clientDataJSON: B64,
        attestationObject: B64,
        transports: z.array(z.string().max(32)).max(10).optional(),
      })
      .loose(),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  })
  .loose();

/** What `navigator.credentials.get()` produced, as startAuthentication returns it. */
const AuthenticationCredential = z
  .object({
    id: B64,
    rawId: B64,
    type: z.literal("public-key"),
    response: z
      .object({
        clientDataJSON: B64,
        authenticatorData: B64,
        signature: B64,
        userHandle: B64.optional(),
      })
      .loose(),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  })
  .loose();

export const RegisterPasskeyBody = z
  .object({ name: Name.default("Passkey"), credential: RegistrationCredential })
  .strict();

export const RenamePasskeyBody = z.object({ name: Name }).strict();

export const PasskeySignInBody = z.object({ credential: AuthenticationCredential }).strict();

/**
 * WebAuthn options for the browser (`PublicKeyCredentialCreationOptionsJSON` or
 * `PublicKeyCredentialRequestOptionsJSON`): hand them to navigator.credentials (or
 * @simplewebauthn/browser) as they are. Their `challenge` is single-use and expires in five minutes.
 */
export const WebAuthnOptionsSchema = z.object({
  options: z.record(z.string(), z.unknown()).describe("PublicKeyCredential options JSON (WebAuthn Level 3)"),
});
