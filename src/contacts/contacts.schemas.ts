import { z } from "zod";
import { PageQuery } from "../http/schemas";
import { TagRefSchema } from "../labels/labels.public";

/** Members every record write (ticket, contact, company) shares: labels and custom fields. */
export const RecordExtras = {
  tags: z.array(z.string().max(200)).max(200).optional(),
  add_tags: z.array(z.string().max(200)).max(200).optional(),
  remove_tags: z.array(z.string().max(200)).max(200).optional(),
  fields: z.record(z.string(), z.unknown()).optional(),
};

const Text = (max: number) => z.string().max(max);
const Custom = z
  .record(z.string(), z.unknown())
  .refine((v) => JSON.stringify(v).length <= 16_384, "custom holds at most 16 KB of JSON");

export const CreateContactBody = z.strictObject({
  email: z.string().max(254).nullable().optional(),
  emails: z
    .array(z.string().max(254))
    .max(20)
    .optional()
    .describe("Every address of the contact, the first becoming `email`; replaces the list (at most 20)"),
  name: Text(200).optional(),
  phone: Text(50).optional(),
  company_id: z.string().max(100).nullable().optional(),
  external_id: z.string().min(1).max(255).nullable().optional(),
  notes: Text(10_000).optional(),
  custom: Custom.optional(),
  blocked: z.boolean().optional(),
  locale: z
    .string()
    .max(35)
    .nullable()
    .optional()
    .describe("The contact's language, a BCP 47 tag (stored canonical: `de-at` → `de-AT`); null clears it"),
  ...RecordExtras,
});

export const ContactSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  emails: z.array(z.string()).describe("Every address of the contact, `email` first; any finds it on inbound mail"),
  name: z.string(),
  phone: z.string(),
  notes: z.string(),
  avatar_url: z.string().nullable(),
  avatar_source: z.string().nullable(),
  company: z.object({ id: z.string(), name: z.string(), domain: z.string().nullable() }).nullable(),
  external_id: z.string().nullable(),
  custom: z.record(z.string(), z.unknown()),
  tags: z.array(TagRefSchema),
  fields: z.record(z.string(), z.unknown()),
  blocked: z.boolean(),
  locale: z
    .string()
    .nullable()
    .describe(
      "BCP 47 tag of the language Desk writes to this contact in (mail, portal); set by an agent, or once from the widget, portal, contact form or an inbound mail's language",
    ),
  ticket_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** `created_at` (newest first, the default) or `field.<key>` (a text, number, date, checkbox or select field; ascending unless `order=desc`; records without a value sort lowest). */
const RecordSort = z.string().max(100).describe("created_at (default, newest first) or field.<key>").optional();

/** field.<key> filters pass through to parseFieldFilters; everything else is checked here. */
export const ContactListQuery = z.looseObject({
  ...PageQuery.shape,
  q: z.string().max(200).optional(),
  company_id: z.string().max(100).optional(),
  tag: z.string().max(200).optional(),
  sort: RecordSort,
  order: z.enum(["asc", "desc"]).optional(),
});

export const CreateCompanyBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  domain: z.string().max(253).nullable().optional(),
  notes: Text(10_000).optional(),
  custom: Custom.optional(),
  ...RecordExtras,
});
export const UpdateCompanyBody = CreateCompanyBody.partial();

export const CompanySchema = z.object({
  id: z.string(),
  name: z.string(),
  domain: z.string().nullable(),
  notes: z.string(),
  custom: z.record(z.string(), z.unknown()),
  tags: z.array(TagRefSchema),
  fields: z.record(z.string(), z.unknown()),
  contact_count: z.number(),
  avatar_url: z.string().nullable(),
  avatar_source: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const CompanyListQuery = z.looseObject({
  ...PageQuery.shape,
  q: z.string().max(200).optional(),
  tag: z.string().max(200).optional(),
  sort: RecordSort,
  order: z.enum(["asc", "desc"]).optional(),
});

export const MergeContactBody = z.strictObject({
  into_id: z.string().min(1).max(100).describe("The contact that remains; the merged one is deleted"),
});

export const ContactDuplicatesSchema = z.object({
  data: z.array(ContactSchema).describe("Other live contacts with the same name and an email at the same domain"),
});
