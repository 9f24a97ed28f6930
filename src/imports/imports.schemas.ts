import { z } from "zod";
import { IMPORT_SOURCES, IMPORT_STATUSES } from "./imports.table";

export const ImportSchema = z.object({
  id: z.string(),
  source: z.enum(IMPORT_SOURCES),
  status: z.enum(IMPORT_STATUSES),
  progress: z.object({ phase: z.string(), done: z.number(), total: z.number().nullable() }),
  counts: z.object({
    tickets: z.number(),
    messages: z.number(),
    contacts: z.number(),
    companies: z.number(),
    attachments: z.number(),
    users: z.number(),
    skipped: z.number(),
    failed: z.number(),
  }),
  errors: z.array(z.object({ record: z.string(), message: z.string() })),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  created_at: z.string(),
});
export type ImportJson = z.infer<typeof ImportSchema>;

/** A vendor's API root: a test or a proxy may stand in for the vendor. */
const BaseUrl = z.url({ protocol: /^https?$/ }).max(500);

export const ZendeskOptions = z.strictObject({
  subdomain: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/i, "the part before .zendesk.com: letters, digits and -")
    .transform((s) => s.toLowerCase()),
  email: z.email().max(254),
  api_token: z.string().min(1).max(200),
  base_url: BaseUrl.optional(),
  /** Zendesk's documented budgets differ by plan (200 to 700 a minute); the lowest is the default. */
  requests_per_minute: z.number().int().min(1).max(100_000).optional(),
  /** Incremental exports have their own budget: 10 a minute (30 with the high-volume add-on). */
  export_requests_per_minute: z.number().int().min(1).max(100_000).optional(),
});
export type ZendeskOptionsInput = z.output<typeof ZendeskOptions>;

export const FreshdeskOptions = z.strictObject({
  domain: z
    .string()
    .max(253)
    .regex(/^[a-z0-9][a-z0-9.-]*$/i, "acme or acme.freshdesk.com")
    .transform((s) => s.toLowerCase()),
  api_key: z.string().min(1).max(200),
  base_url: BaseUrl.optional(),
  /** Freshdesk's budget depends on the plan (200 a minute on Growth, 400 on Pro, 700 on Enterprise). */
  requests_per_minute: z.number().int().min(1).max(100_000).optional(),
});
export type FreshdeskOptionsInput = z.output<typeof FreshdeskOptions>;

export const HelpScoutOptions = z.strictObject({
  app_id: z.string().min(1).max(200),
  app_secret: z.string().min(1).max(200),
  base_url: BaseUrl.optional(),
  /** Help Scout allows 400 requests a minute per account. */
  requests_per_minute: z.number().int().min(1).max(100_000).optional(),
});
export type HelpScoutOptionsInput = z.output<typeof HelpScoutOptions>;

/** A flag from JSON (true/false) or the command line ("true", "tls", "starttls", "none"). */
const ImapTls = z.preprocess(
  (v) => (v === true || v === "true" ? "tls" : v === false || v === "false" ? "none" : v),
  z.enum(["tls", "starttls", "none"]),
);

export const ImapImportOptions = z.strictObject({
  host: z
    .string()
    .min(1)
    .max(253)
    .regex(/^[a-z0-9.:[\]-]+$/i, "a host name or address"),
  port: z.coerce.number().int().min(1).max(65_535),
  tls: ImapTls.default("tls"),
  username: z.string().min(1).max(254),
  password: z.string().min(1).max(1000),
  /** Default: INBOX and the folder flagged \Sent. */
  folders: z
    .preprocess(
      (v) => (typeof v === "string" ? v.split(",").map((f) => f.trim()) : v),
      z.array(z.string().min(1).max(200)).min(1).max(20),
    )
    .optional(),
});
export type ImapImportOptionsInput = z.output<typeof ImapImportOptions>;

export const CreateImportBody = z.discriminatedUnion("source", [
  z.strictObject({ source: z.literal("zendesk"), options: ZendeskOptions }),
  z.strictObject({ source: z.literal("freshdesk"), options: FreshdeskOptions }),
  z.strictObject({ source: z.literal("helpscout"), options: HelpScoutOptions }),
  z.strictObject({ source: z.literal("imap"), options: ImapImportOptions }),
]);
export type CreateImportInput = z.output<typeof CreateImportBody>;

export const CSV_KINDS = ["contacts", "companies"] as const;
export type CsvKind = (typeof CSV_KINDS)[number];
/** The CSV upload (multipart): at most this many bytes and rows. */
export const CSV_MAX_BYTES = 10 * 1024 * 1024;
export const CSV_MAX_ROWS = 50_000;

/** A CSV's column mapping: Desk field (or custom.<key>) → the CSV header that holds it. */
export const CsvMappingSchema = z.record(z.string().max(100), z.string().max(200));
export type CsvMapping = z.infer<typeof CsvMappingSchema>;

/** A CSV dry run (`dry_run=true`): the file's headers, a suggested mapping and what each row would do. */
export const CsvDryRunSchema = z.object({
  kind: z.enum(CSV_KINDS),
  headers: z.array(z.string()),
  sample_rows: z.array(z.array(z.string())),
  suggested_mapping: CsvMappingSchema,
  mapping: CsvMappingSchema,
  row_count: z.number(),
  totals: z.object({ create: z.number(), update: z.number(), skip: z.number(), error: z.number() }),
  problems: z.array(z.object({ column: z.string().nullable(), message: z.string() })),
  rows: z.array(
    z.object({
      row: z.number(),
      action: z.enum(["create", "update", "skip", "error"]),
      column: z.string().nullable(),
      message: z.string().nullable(),
    }),
  ),
});
export type CsvDryRunJson = z.infer<typeof CsvDryRunSchema>;

export const ImportCheckSchema = z.object({
  ok: z.boolean(),
  totals: z.record(z.string(), z.number()),
  message: z.string().nullable(),
});
