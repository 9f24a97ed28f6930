import { z } from "zod";
import { UserSchema, WorkspaceMembershipSchema } from "./auth.schemas";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./passwords";

export const MeSchema = z.object({
  user: UserSchema.nullable().describe("null for an API key without a known creator"),
  workspaces: z.array(WorkspaceMembershipSchema),
  api_key: z
    .object({ id: z.string(), name: z.string(), scopes: z.array(z.string()) })
    .optional()
    .describe("present when the caller is an API key"),
});

/** MAX_LOCALE_LENGTH: BCP 47 asks implementations to accept tags of at least 35 characters; longer ones are private-use noise. */
export const MAX_LOCALE_LENGTH = 35;

/** The canonical spelling of a well-formed BCP 47 tag (`EN-us` → `en-US`), else null. */
export function canonicalLocale(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

export const UpdateMeBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    locale: z
      .string()
      .trim()
      .max(MAX_LOCALE_LENGTH)
      .refine((tag) => canonicalLocale(tag) !== null, "a BCP 47 language tag such as de, pt-BR or ar")
      .nullable()
      .optional()
      .describe(
        "your language for the app, a BCP 47 tag (at most 35 characters), stored canonical; null follows the browser. A language without a catalogue is kept: the app shows English text in that language's writing direction",
      ),
    avatar_url: z
      .string()
      .trim()
      .max(2000)
      .optional()
      .describe(
        "an https URL of a picture to copy (fetched server-side, checked and processed like an upload); the picture changes, and member.updated follows, once it is fetched",
      ),
  })
  .strict();

export const MfaSetupSchema = z.object({ secret: z.string(), otpauth_url: z.string() });

const Code = z.string().trim().min(1).max(40);

export const MfaEnableBody = z.object({ code: Code }).strict();
export const MfaEnabledSchema = z.object({ enabled: z.literal(true), recovery_codes: z.array(z.string()) });

export const MfaDisableBody = z
  .object({ code: Code.optional(), password: z.string().min(1).max(MAX_PASSWORD_LENGTH).optional() })
  .strict()
  .refine((b) => (b.code === undefined) !== (b.password === undefined), {
    message: "send either code or password",
    path: ["code"],
  });
export const MfaDisabledSchema = z.object({ enabled: z.literal(false) });

export const ChangePasswordBody = z
  .object({
    current_password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
    new_password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(MAX_PASSWORD_LENGTH),
  })
  .strict();

export const SignedOutSchema = z.object({
  signed_out_sessions: z.number().int().describe("how many other sessions were ended"),
});

export const SessionInfoSchema = z.object({
  id: z.string(),
  client: z.enum(["web", "native"]),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string(),
  mfa_verified: z.boolean(),
  current: z.boolean().describe("the session of the access token making this request"),
});
export const SessionListSchema = z.object({ data: z.array(SessionInfoSchema) });
export const SessionParams = z.object({ id: z.string().min(1).max(64) });
