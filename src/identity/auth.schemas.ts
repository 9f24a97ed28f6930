import { z } from "zod";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./passwords";

const Email = z.string().trim().toLowerCase().pipe(z.email("a valid email address").max(320));

/** A solved sign-in challenge: the challenge as POST /v1/auth/challenge gave it, and the solution found. */
export const ChallengeAnswerBody = z
  .object({
    challenge: z.object({
      parameters: z
        .object({
          algorithm: z.string().max(40),
          nonce: z.string().max(200),
          salt: z.string().max(200),
          cost: z.number(),
          keyLength: z.number(),
          keyPrefix: z.string().max(200),
        })
        .catchall(z.unknown()),
      signature: z.string().max(400),
    }),
    solution: z.object({
      counter: z.number().int().min(0),
      derivedKey: z.string().max(400),
      time: z.number().optional(),
    }),
  })
  .describe("Required once an account or address has failed to sign in a few times (403 challenge_required)");

const B64 = z
  .string()
  .min(1)
  .max(16_384)
  .regex(/^[A-Za-z0-9+/_-]+=*$/, "base64");

/** A native app's App Attest assertion, accepted where the web sends a solved challenge (APP_ATTEST_APP_IDS). */
export const AppAttestProofBody = z
  .object({
    key_id: B64.describe("the key registered at POST /v1/auth/app-attest/keys"),
    assertion: B64.describe("generateAssertion's CBOR object, base64"),
    client_data: B64.describe(
      'base64 of the bytes whose SHA-256 the app signed: JSON with a fresh `"challenge"` from POST /v1/auth/app-attest/challenge',
    ),
  })
  .strict();

export const AttestChallengeSchema = z.object({ challenge: z.string(), expires_in: z.number() });

export const RegisterAttestedKeyBody = z
  .object({
    key_id: B64.describe("generateKey's key id (base64 SHA-256 of the public key)"),
    attestation: B64.describe("attestKey's attestation object, base64; made over SHA256(challenge)"),
    challenge: z.string().min(1).max(200).describe("a challenge from POST /v1/auth/app-attest/challenge"),
  })
  .strict();

export const AttestedKeySchema = z.object({
  key_id: z.string(),
  app_id: z.string(),
  environment: z.enum(["production", "development"]),
  created_at: z.string(),
});

export const ChallengeSchema = z.object({
  challenge: z.object({ parameters: z.record(z.string(), z.unknown()), signature: z.string() }),
  expires_in: z.number(),
});

export const RegisterBody = z
  .object({
    email: Email,
    password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(MAX_PASSWORD_LENGTH),
    name: z.string().trim().min(1).max(100),
    challenge: ChallengeAnswerBody.optional(),
    app_attest: AppAttestProofBody.optional(),
  })
  .strict();

export const LoginBody = z
  .object({
    email: z.string().trim().toLowerCase().min(1).max(320),
    password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
    challenge: ChallengeAnswerBody.optional(),
    app_attest: AppAttestProofBody.optional(),
  })
  .strict();

export const MfaBody = z
  .object({
    mfa_token: z.string().min(1).max(2000),
    code: z.string().trim().min(1).max(40).describe("the 6-digit authenticator code, or a one-time recovery code"),
  })
  .strict();

const UserId = z.string().min(1).max(64);
const RefreshToken = z.string().min(1).max(300).describe("native clients only");

export const RefreshBody = z.object({ user_id: UserId.optional(), refresh_token: RefreshToken.optional() }).strict();

export const LogoutBody = z
  .object({ all: z.boolean().optional(), user_id: UserId.optional(), refresh_token: RefreshToken.optional() })
  .strict();

export const AccountsBody = z.object({}).strict();

export const UserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  avatar_url: z.string().nullable(),
  avatar_source: z.string().nullable(),
  mfa_enabled: z.boolean(),
  locale: z
    .string()
    .nullable()
    .describe("the app's language the member chose (a BCP 47 tag); null follows the browser's languages"),
  created_at: z.string(),
});

export const WorkspaceMembershipSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  role: z.enum(["owner", "admin", "agent", "viewer"]),
});

export const SessionSchema = z.object({
  access_token: z.string(),
  expires_in: z.number(),
  user: UserSchema,
  refresh_token: z.string().optional().describe("native clients only; browsers get the desk_rt_<user id> cookie"),
});

export const LoginAnswerSchema = z.union([
  SessionSchema,
  z.object({ mfa_required: z.literal(true), mfa_token: z.string() }),
]);

export const AccountsSchema = z.object({
  accounts: z.array(z.object({ user: UserSchema, workspaces: z.array(WorkspaceMembershipSchema) })),
});
