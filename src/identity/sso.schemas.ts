import { z } from "zod";

export const ProviderParams = z.object({ provider: z.string().min(1).max(32) });

export const StartQuery = z.object({
  client: z.enum(["web", "native"]).optional().describe("native: the app's system-browser flow"),
  code_challenge: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, "a base64url S256 challenge (43 characters)")
    .optional()
    .describe("native only: BASE64URL(SHA256(code_verifier)); the exchange then needs code_verifier"),
  next: z.string().max(2000).optional().describe("web only: a path on this site to open after signing in"),
});

export const CallbackQuery = z
  .object({
    state: z.string().max(500).optional(),
    code: z.string().max(4000).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(2000).optional(),
    iss: z.string().max(2000).optional(),
    session_state: z.string().max(500).optional(),
  })
  .catchall(z.string().max(2000));

export const ExchangeBody = z
  .object({
    code: z.string().min(1).max(200),
    code_verifier: z
      .string()
      .regex(/^[A-Za-z0-9._~-]{43,128}$/, "43 to 128 characters of [A-Za-z0-9._~-]")
      .optional()
      .describe("native: the PKCE verifier whose challenge started the flow"),
  })
  .strict();

export const ProvidersSchema = z.object({
  providers: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      start_url: z.string().describe("open in the browser (web) or the system browser (native, with client=native)"),
    }),
  ),
});

export const LinkStartSchema = z.object({
  url: z.string().describe("the provider's authorization URL: send the browser there (a full-page navigation)"),
});

export const ConfirmLinkBody = z
  .object({ token: z.string().min(1).max(4000).describe("the fragment of the link in the confirmation mail") })
  .strict();

export const ConfirmLinkSchema = z.object({
  provider: z.object({ id: z.string(), name: z.string() }),
  email: z.string(),
});

export const IdentitiesSchema = z.object({
  identities: z.array(
    z.object({
      provider: z.string(),
      provider_name: z.string(),
      email: z.string().nullable().describe("the verified email the provider gave when linked, if any"),
      linked_at: z.string(),
      last_used_at: z.string().nullable(),
    }),
  ),
});
