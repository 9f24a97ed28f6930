import { z } from "zod";
import { SHIPPED_LOCALES } from "../i18n/locales";

export const CreateWorkspaceBody = z.object({
  name: z.string().trim().min(1).max(100),
  slug: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,47}$/, "lowercase letters, digits and dashes")
    .optional(),
});

export const WorkspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  widget_key: z.string(),
  settings: z.record(z.string(), z.unknown()),
  avatar_url: z.string().nullable(),
  avatar_source: z.enum(["upload"]).nullable(),
  images: z.record(z.string(), z.string().nullable()),
  created_at: z.string(),
});

/** True for a time zone name the runtime's IANA database knows (e.g. "Europe/Berlin", "UTC"). */
export function isIanaTimeZone(name: string): boolean {
  if (!/^[A-Za-z0-9_+\-/]{1,64}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** SPEC.md's AI features object (`ai.assistant` is one of its members). Every member is optional. */
export const AiSettingsPatch = z
  .object({
    enabled: z.boolean().nullable(),
    auto_triage: z.boolean().nullable(),
    auto_summarize: z.boolean().nullable(),
    widget_answers: z.boolean().nullable(),
    assistant: z.boolean().nullable(),
    tone: z.string().trim().max(200).nullable(),
    reply_language: z
      .string()
      .trim()
      .max(35)
      .regex(/^([A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*|auto)?$/, "a BCP 47 language tag")
      .nullable(),
    instructions: z.string().max(2000).nullable(),
  })
  .partial()
  .strict();

/**
 * WorkspaceSettings as PATCH takes it: members are merged into what is stored; `null` removes a
 * member (it falls back to its default). Unknown members are refused.
 */
export const WorkspaceSettingsPatch = z
  .object({
    brand_color: z
      .string()
      .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "a hex colour such as #1f6feb")
      .nullable(),
    timezone: z.string().refine(isIanaTimeZone, "an IANA time zone such as Europe/Berlin").nullable(),
    help_center_enabled: z.boolean().nullable(),
    help_center_title: z
      .string()
      .trim()
      .max(100)
      .refine((s) => !/[<>]/.test(s), "must not contain < or >")
      .nullable(),
    csat_enabled: z.boolean().nullable(),
    /** Days a solved ticket stays solved before it closes by itself (default 4; 0 = never). */
    auto_close_days: z
      .number()
      .int()
      .min(0)
      .max(365)
      .nullable()
      .describe("days a solved ticket stays solved before it closes by itself (default 4; 0 = never)"),
    auto_assign: z.enum(["none", "round_robin", "load_balanced"]).nullable(),
    assign_on_reply: z
      .boolean()
      .nullable()
      .describe(
        "an agent's reply (not a note) on an unassigned ticket assigns it to them; API keys and automations never take a ticket (default true)",
      ),
    follow_on_mention: z
      .boolean()
      .nullable()
      .describe("true: a member mentioned in a note starts following the ticket (default false)"),
    gravatar: z.boolean().nullable(),
    domain_logos: z.boolean().nullable(),
    sso_only: z
      .boolean()
      .nullable()
      .describe(
        "true: members other than the owner sign in only with single sign-on (password and passkey sign-in answer 403 sso_required); default false",
      ),
    label_creation: z.enum(["everyone", "admins"]).nullable(),
    locale: z
      .enum(SHIPPED_LOCALES)
      .nullable()
      .describe(
        `the workspace's language (BCP 47, one of ${SHIPPED_LOCALES.join(", ")}; default en): customer mail and pages when the customer's own language is unknown`,
      ),
    locales: z
      .array(z.enum(SHIPPED_LOCALES))
      .min(1)
      .max(SHIPPED_LOCALES.length)
      .refine((list) => new Set(list).size === list.length, "each locale once")
      .nullable()
      .describe("the help center's languages, first the default (default: [locale])"),
    ai: AiSettingsPatch.nullable(),
  })
  .partial()
  .strict();

export type WorkspaceSettingsPatchInput = z.infer<typeof WorkspaceSettingsPatch>;

export const UpdateWorkspaceBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    settings: WorkspaceSettingsPatch.optional(),
  })
  .strict();

export const DeleteWorkspaceBody = z.object({ confirm_name: z.string().max(200) }).strict();

export const TransferWorkspaceBody = z.object({ user_id: z.string().min(1).max(100) }).strict();

export const WidgetSecretSchema = z.object({ secret: z.string() });
