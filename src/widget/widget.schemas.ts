import { z } from "zod";
import { AttachmentSchema } from "../attachments/attachments.public";

export const WidgetConfigSchema = z.object({
  workspace_name: z.string(),
  brand_color: z.string(),
  greeting: z.string(),
  help_center_url: z.string().nullable(),
  require_email: z.boolean(),
  avatar_url: z.string().nullable().describe("the workspace's widget avatar (or its logo), if any"),
  launcher_url: z.string().nullable().describe("the workspace's launcher picture, if any"),
  locale: z
    .string()
    .describe("the language the widget speaks: the one asked for when Desk ships it, else the workspace's"),
  messages: z.record(z.string(), z.string()).describe("the widget's texts in that language (ICU messages)"),
});

export const WidgetContactSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  name: z.string(),
  avatar_url: z.string().nullable(),
});

export const WidgetSessionSchema = z.object({
  visitor_token: z.string(),
  contact: WidgetContactSchema,
  ws_token: z.string(),
  gateway_url: z.string(),
});

const Text = (max: number) => z.string().trim().max(max);

export const SessionBody = z.strictObject({
  key: z.string().min(1).max(100),
  visitor_token: z.string().max(200).optional(),
  email: z.string().trim().max(254).optional(),
  name: Text(200).optional(),
  user_id: z.string().min(1).max(200).optional(),
  user_hash: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "the hex HMAC-SHA256 of user_id")
    .optional(),
  /** The verified visitor's picture on the customer's own site: copied as the contact's `widget` picture. */
  avatar_url: z.string().url().max(2000).optional(),
  /** The page the widget runs on and the visitor's time zone: the visitor's own word, shown to agents as text. */
  page_url: z
    .string()
    .max(2000)
    .regex(/^https?:\/\/[^\s]+$/, "an http(s) address")
    .optional(),
  time_zone: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_+\-/]+$/, "an IANA time zone name")
    .optional(),
  locale: z
    .string()
    .max(35)
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, "a BCP 47 language tag")
    .optional()
    .describe("the language the widget speaks (its config's locale): the contact's locale when it has none yet"),
});

/** What the widget knows of a contact's latest visit, for the customer card. */
export const VisitorInfoSchema = z.object({
  page_url: z.string().nullable(),
  page_host: z.string().nullable(),
  browser: z.string().nullable(),
  time_zone: z.string().nullable(),
  last_seen_at: z.string(),
});

export const ConfigQuery = z.object({
  key: z.string().min(1).max(100),
  locale: z
    .string()
    .max(35)
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, "a BCP 47 language tag")
    .optional()
    .describe("the page's language (the script tag's data-locale, else the browser's)"),
});
export const ArticlesQuery = z.object({
  key: z.string().min(1).max(100),
  q: z.string().trim().max(200),
  locale: z
    .string()
    .max(35)
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, "a BCP 47 language tag")
    .optional()
    .describe("the widget's language: articles translated into it show in it"),
});

export const WidgetArticlesSchema = z.object({
  data: z.array(z.object({ title: z.string(), excerpt: z.string(), url: z.string() })),
});

/** A message as the visitor sees it: no notes, no addresses, no delivery or sender-check fields. */
export const WidgetMessageSchema = z.object({
  id: z.string(),
  conversation_id: z.string(),
  direction: z.enum(["inbound", "outbound"]),
  author: z.object({
    type: z.enum(["contact", "user", "system", "api"]),
    name: z.string(),
    avatar_url: z.string().nullable(),
  }),
  body_html: z.string(),
  body_text: z.string(),
  attachments: z.array(AttachmentSchema),
  created_at: z.string(),
});

export const WidgetConversationSchema = z.object({
  id: z.string(),
  number: z.number(),
  subject: z.string(),
  status: z.string(),
  last_message_at: z.string(),
  last_message_preview: z.string(),
  created_at: z.string(),
});

export const MessageBody = z.strictObject({
  body: z.string().trim().max(5000).default(""),
  attachment_ids: z.array(z.string().min(1).max(100)).max(10).optional(),
});

export const ConversationCreated = z.object({
  conversation: WidgetConversationSchema,
  message: WidgetMessageSchema,
});

/** The newest message of the conversation the visitor has on screen. */
export const SeenBody = z.strictObject({ message_id: z.string().min(1).max(100) });

export const HandoffAnswer = z.object({ requested: z.literal(true), notified: z.number() });

export const WidgetSettingsSchema = z.object({
  enabled: z.boolean(),
  greeting: z.string(),
  require_email: z.boolean(),
  allowed_origins: z.array(z.string()),
  reply_mailbox_id: z.string().nullable(),
  widget_key: z.string(),
  snippet: z.string().describe("the one tag to paste before </body>"),
});

/** `https://shop.example`, `http://localhost:3000` or `https://*.example.com`; no path. */
const ORIGIN_RE = /^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/;
const Origin = z
  .string()
  .trim()
  .max(200)
  .transform((value) => value.toLowerCase().replace(/\/$/, ""))
  .refine((value) => ORIGIN_RE.test(value), "an origin such as https://shop.example or https://*.example.com");

export const SettingsPatch = z.strictObject({
  enabled: z.boolean().optional(),
  greeting: Text(500).optional(),
  require_email: z.boolean().optional(),
  allowed_origins: z.array(Origin).max(50).optional(),
  /** The mailbox unseen chat replies are mailed from; null: the workspace's first mailbox. */
  reply_mailbox_id: z.string().min(1).max(100).nullable().optional(),
});
export type SettingsPatchInput = z.infer<typeof SettingsPatch>;
