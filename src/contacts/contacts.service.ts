import { first, one } from "../db/store";
import { and, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Db, Queryable, Tx } from "../db/database";
import { sqlParts } from "../db/dialect";
import { pageOf, type Page } from "../db/cursor";
import { dbOf, transact } from "../db/tx";
import { contactCreated, contactDeleted, contactUpdated } from "./contacts.events";
import { appendEvent } from "../events/append";
import { conflict, invalidAt, notFound } from "../lib/errors";
import {
  checkEmailList,
  clearSecondaryEmails,
  contactIdBySecondaryEmail,
  emailTakenAt,
  holderOfEmail,
  replaceSecondaryEmails,
  secondaryEmailsOf,
} from "./contacts.emails";
import { newId } from "../lib/ids";
import type { Ports } from "../lib/ports";
import { companies } from "./companies.table";
import {
  applyFieldWrite,
  clearFieldValues,
  fieldFilterSql,
  fieldValuePrefixSql,
  parseFieldFilters,
  type FieldChange,
} from "../custom-fields/custom-fields.public";
import { applyLabelWrite, clearLabels, labelFilterSql, type LabelWrite } from "../labels/labels.public";
import {
  presentContact,
  presentContactRef,
  presentContacts,
  type ContactRef,
  type ContactRow,
} from "./contacts.present";
import { matchingContactIdsSql } from "./contacts.search-sql";
import { contactRefRows, insertContactRow, liveContactByEmail, renameContactRow } from "./contacts.statements";
import { contacts } from "./contacts.table";
import { recordSortPlan } from "./records.sort";
import { likePrefix, normalizeEmail } from "./contacts.text";
import type { Clock } from "../lib/clock";
import { deskClock } from "../db/desk-clock";
import { contactTicketCounts } from "./contacts.ticket-counts";
import { canonicalLocaleTag } from "../i18n/locales";

export type { ContactRow } from "./contacts.present";
type Deps = { db: Db; clock: Clock; ports: Ports };

export type ContactInput = LabelWrite & {
  email?: string | null;
  /** Every address, the first becoming `email`; replaces the list. */
  emails?: string[];
  name?: string;
  phone?: string;
  company_id?: string | null;
  external_id?: string | null;
  notes?: string;
  custom?: Record<string, unknown>;
  blocked?: boolean;
  locale?: string | null;
  fields?: Record<string, unknown>;
};

/** The canonical tag a write gives (undefined leaves it, null clears it); a malformed one is 422 at body.locale. */
function localeOfInput(input: ContactInput): string | null | undefined {
  if (input.locale === undefined || input.locale === null) return input.locale;
  const tag = canonicalLocaleTag(input.locale);
  if (!tag) throw invalidAt("body.locale", "locale must be a well-formed BCP 47 language tag such as de or pt-BR");
  return tag;
}

export async function findContact(db: Queryable, workspaceId: string, id: string): Promise<ContactRow | undefined> {
  return first(
    await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, id), isNull(contacts.deletedAt)))
      .limit(1),
  );
}

async function assertUnique(
  tx: Tx,
  workspaceId: string,
  exceptId: string | null,
  email: string | null | undefined,
  externalId: string | null | undefined,
) {
  const live = async (cond: SQL) => {
    const row = first(
      await tx
        .select({ id: contacts.id })
        .from(contacts)
        .where(and(eq(contacts.workspaceId, workspaceId), isNull(contacts.deletedAt), cond))
        .limit(1),
    );
    return row && row.id !== exceptId;
  };
  if (email && (await holderOfEmail(tx, workspaceId, email, exceptId))) throw emailTakenAt("body.email");
  if (externalId && (await live(eq(contacts.externalId, externalId))))
    throw conflict("A contact with this external_id already exists.");
}

async function assertCompany(tx: Tx, workspaceId: string, companyId: string | null | undefined) {
  if (!companyId) return;
  const found = first(
    await tx
      .select({ id: companies.id })
      .from(companies)
      .where(and(eq(companies.workspaceId, workspaceId), eq(companies.id, companyId), isNull(companies.deletedAt)))
      .limit(1),
  );
  if (!found) throw invalidAt("body.company_id", "no company of this workspace has this id");
}

/** Labels and custom field values of a contact write; true when something changed. */
async function applyExtras(
  tx: Tx,
  ctx: RequestContext,
  id: string,
  input: ContactInput,
  ports: Ports,
): Promise<boolean> {
  const labels = await applyLabelWrite(tx, ctx, "contacts", id, input, ports);
  const fields: FieldChange[] =
    input.fields !== undefined ? await applyFieldWrite(tx, ctx, "contact", id, input.fields) : [];
  return labels.added.length + labels.removed.length + fields.length > 0;
}

/**
 * The addresses a write gives: `emails` when present (its first is the primary; `email`, if also
 * given, must be that first), else only `email`. Undefined `list` leaves the secondaries alone.
 */
async function emailsOfInput(
  tx: Tx,
  workspaceId: string,
  contactId: string | null,
  input: ContactInput,
): Promise<{ email: string | null | undefined; list: string[] | undefined }> {
  if (input.emails === undefined) {
    const email = input.email
      ? normalizeEmail(input.email, "body.email")
      : input.email === undefined
        ? undefined
        : null;
    return { email, list: undefined };
  }
  const list = await checkEmailList(tx, workspaceId, contactId, input.emails, "body.emails");
  if (
    input.email !== undefined &&
    (input.email ? normalizeEmail(input.email, "body.email") : null) !== (list[0] ?? null)
  )
    throw invalidAt("body.email", "email must be the first of emails when both are given");
  return { email: list[0] ?? null, list };
}

/** `options.createdAt`: an import keeps the source's creation time (ISO 8601); else now. */
export async function createContact(
  ctx: RequestContext,
  input: ContactInput,
  deps: Deps,
  options: { createdAt?: string } = {},
): Promise<ContactRow> {
  return await transact(deps.db, async (tx) => {
    const given = await emailsOfInput(tx, ctx.workspaceId, null, input);
    const email = given.email ?? null;
    const locale = localeOfInput(input) ?? null;
    await assertUnique(tx, ctx.workspaceId, null, email, input.external_id);
    await assertCompany(tx, ctx.workspaceId, input.company_id);
    const now = deps.clock.now().toISOString();
    const createdAt = options.createdAt ?? now;
    const row = one(
      await tx
        .insert(contacts)
        .values({
          id: newId(),
          workspaceId: ctx.workspaceId,
          email,
          name: input.name ?? "",
          phone: input.phone ?? "",
          notes: input.notes ?? "",
          companyId: input.company_id ?? null,
          externalId: input.external_id ?? null,
          custom: input.custom ?? {},
          blocked: input.blocked ?? false,
          locale,
          createdAt,
          updatedAt: now,
        })
        .returning(),
    );
    if (given.list && given.list.length > 1)
      await replaceSecondaryEmails(tx, ctx.workspaceId, row.id, given.list.slice(1), now);
    await applyExtras(tx, ctx, row.id, input, deps.ports);
    await appendEvent(tx, contactCreated, {
      workspaceId: ctx.workspaceId,
      data: { contact: await presentContact(tx, deps.ports.get(contactTicketCounts), row) },
    });
    return row;
  });
}

export async function updateContact(
  ctx: RequestContext,
  id: string,
  input: ContactInput,
  deps: Deps,
): Promise<ContactRow> {
  return await transact(deps.db, async (tx) => {
    const before = await findContact(tx, ctx.workspaceId, id);
    if (!before) throw notFound("Contact");
    const given = await emailsOfInput(tx, ctx.workspaceId, id, input);
    let email = given.email;
    const locale = localeOfInput(input);
    await assertUnique(tx, ctx.workspaceId, id, email, input.external_id);
    const secondaries = (await secondaryEmailsOf(tx, [id])).get(id) ?? [];
    let nextSecondaries = given.list?.slice(1);
    if (!given.list && email !== undefined) {
      // A new primary that was a secondary moves up; clearing the primary promotes the next address.
      if (email === null && secondaries.length > 0) email = secondaries[0]!;
      const rest = secondaries.filter((e) => e !== email);
      if (rest.length !== secondaries.length) nextSecondaries = rest;
    }
    const emailsChanged = nextSecondaries !== undefined && nextSecondaries.join("\n") !== secondaries.join("\n");
    if (emailsChanged)
      await replaceSecondaryEmails(tx, ctx.workspaceId, id, nextSecondaries!, deps.clock.now().toISOString());
    await assertCompany(tx, ctx.workspaceId, input.company_id);
    const patch: Partial<ContactRow> = {};
    if (email !== undefined) patch.email = email;
    if (input.name !== undefined) patch.name = input.name;
    if (input.phone !== undefined) patch.phone = input.phone;
    if (input.notes !== undefined) patch.notes = input.notes;
    if (input.company_id !== undefined) patch.companyId = input.company_id;
    if (input.external_id !== undefined) patch.externalId = input.external_id;
    if (input.custom !== undefined) patch.custom = input.custom;
    if (input.blocked !== undefined) patch.blocked = input.blocked;
    if (locale !== undefined) patch.locale = locale;
    const columnsChanged = Object.entries(patch).some(
      ([k, v]) => JSON.stringify(before[k as keyof ContactRow]) !== JSON.stringify(v),
    );
    const extrasChanged = await applyExtras(tx, ctx, id, input, deps.ports);
    if (!columnsChanged && !extrasChanged && !emailsChanged) return before;
    const row = one(
      await tx
        .update(contacts)
        .set({ ...patch, updatedAt: deps.clock.now().toISOString() })
        .where(and(eq(contacts.workspaceId, ctx.workspaceId), eq(contacts.id, id)))
        .returning(),
    );
    await appendEvent(tx, contactUpdated, {
      workspaceId: ctx.workspaceId,
      data: { contact: await presentContact(tx, deps.ports.get(contactTicketCounts), row) },
    });
    return row;
  });
}

/** Soft-deletes a contact (its tickets keep their ContactRef); its labels and field values go. */
export async function deleteContact(ctx: RequestContext, id: string, deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    const row = await findContact(tx, ctx.workspaceId, id);
    if (!row) throw notFound("Contact");
    await tx
      .update(contacts)
      .set({ deletedAt: deps.clock.now().toISOString() })
      .where(and(eq(contacts.workspaceId, ctx.workspaceId), eq(contacts.id, id)));
    await clearLabels(tx, "contacts", id);
    await clearFieldValues(tx, "contact", id);
    await clearSecondaryEmails(tx, id);
    await appendEvent(tx, contactDeleted, { workspaceId: ctx.workspaceId, data: { contact_id: id } });
  });
}

export type ContactListQuery = {
  limit: number;
  cursor?: string;
  q?: string;
  company_id?: string;
  tag?: string;
  sort?: string;
  order?: "asc" | "desc";
} & Record<string, unknown>;

/** The old `q`: name, email or a custom text value starting with the text (LIKE, no index on words). */
function prefixMatchSql(db: Queryable, workspaceId: string, q: string): SQL {
  const prefix = likePrefix(q);
  const { likeInsensitive: like } = sqlParts(db);
  return or(
    like(contacts.name, prefix),
    like(contacts.email, prefix),
    secondaryEmailMatchSql(db, workspaceId, q),
    sql`${contacts.id} IN (${fieldValuePrefixSql(db, workspaceId, "contact", prefix)})`,
  )!;
}

/** Contacts with a secondary address starting with `q` or with `q` after its `@` or a dot of it. */
function secondaryEmailMatchSql(db: Queryable, workspaceId: string, q: string): SQL {
  const prefix = likePrefix(q.toLowerCase());
  const { likeInsensitive: like } = sqlParts(db);
  const email = sql.raw("ce.email");
  return sql`${contacts.id} IN (SELECT ce.contact_id FROM contact_emails ce WHERE ce.workspace_id = ${workspaceId} AND (${like(email, prefix)} OR ${like(email, `%@${prefix}`)} OR ${like(email, `%.${prefix}`)}))`;
}

/**
 * Newest first, keyset on the (time-ordered) id. `q` matches words of the name, the email (its
 * parts: "jansen" finds jo.jansen@x.test) and custom text values through the search indexes, the
 * last word as a prefix. When the indexes find nothing for `q` at all (punctuation only, or a
 * fragment inside a word), the name/email/value prefix match answers instead.
 */
export async function listContacts(db: Queryable, ctx: RequestContext, query: ContactListQuery, ports: Ports) {
  const page = await contactRowsPage(db, ctx, query);
  return { data: await presentContacts(db, ports.get(contactTicketCounts), page.data), next_cursor: page.next_cursor };
}

/** One page of the contact list's rows, unpresented (presenting needs the ticket counts' port, which stays on this thread). */
export async function contactRowsPage(
  db: Queryable,
  ctx: RequestContext,
  query: ContactListQuery,
): Promise<Page<ContactRow>> {
  const conditions: SQL[] = [eq(contacts.workspaceId, ctx.workspaceId), isNull(contacts.deletedAt)];
  const plan = await recordSortPlan(db, ctx, "contact", contacts.id, query);
  if (query.company_id !== undefined) conditions.push(eq(contacts.companyId, query.company_id));
  if (query.tag !== undefined) conditions.push(labelFilterSql("contacts", ctx.workspaceId, query.tag, contacts.id));
  for (const filter of parseFieldFilters(query))
    conditions.push(await fieldFilterSql(ctx, "contact", filter, contacts.id, db));
  const select = async (extra: SQL[], limit: number) =>
    await db
      .select({ row: contacts, sortValue: sql<string | number | null>`${plan.key}` })
      .from(contacts)
      .where(and(...conditions, ...extra))
      .orderBy(...plan.orderBy)
      .limit(limit);
  const q = query.q?.trim() ?? "";
  let rows: { row: ContactRow; sortValue: string | number | null }[];
  if (q === "") rows = await select(plan.after, query.limit + 1);
  else {
    // Secondary addresses are outside the word index: they match by prefix alongside the words.
    const words = or(
      sql`${contacts.id} IN (${await matchingContactIdsSql(db, q)})`,
      secondaryEmailMatchSql(db, ctx.workspaceId, q),
    )!;
    rows = await select([words, ...plan.after], query.limit + 1);
    // An empty page after a cursor may just be the end of the word matches: fall back only when the words match nothing.
    if (rows.length === 0 && (plan.after.length === 0 || (await select([words], 1)).length === 0))
      rows = await select([prefixMatchSql(db, ctx.workspaceId, q), ...plan.after], query.limit + 1);
  }
  return await pageOf(
    rows,
    query.limit,
    (r) => r.row,
    (r) => plan.cursorOf(r.row.id, r.sortValue),
  );
}

/**
 * The live contact with this email, or a new one (emitting contact.created). Used by inbound mail,
 * the widget and ticket creation: prepared statements, and a new contact is presented from what
 * is known (no tickets, labels or fields yet) without reading it back.
 */
export async function findOrCreateContactByEmail(
  tx: Tx,
  ctx: RequestContext,
  /** `createdAt`: an import's source time for a contact created here (an existing one keeps its own). */
  input: { email: string; name?: string | null; createdAt?: string },
  ports: Ports,
): Promise<ContactRow> {
  const email = normalizeEmail(input.email, "body.email");
  const name = input.name?.trim().slice(0, 200) ?? "";
  const existing =
    (await liveContactByEmail(tx, ctx.workspaceId, email)) ??
    (await contactBySecondaryEmail(tx, ctx.workspaceId, email));
  if (existing) {
    if (existing.name !== "" || name === "") return existing;
    const named: ContactRow = { ...existing, name, updatedAt: deskClock(dbOf(tx)).now().toISOString() };
    await renameContactRow(tx, existing.id, named.name, named.updatedAt);
    await appendEvent(tx, contactUpdated, {
      workspaceId: ctx.workspaceId,
      data: { contact: await presentContact(tx, ports.get(contactTicketCounts), named) },
    });
    return named;
  }
  const now = deskClock(dbOf(tx)).now().toISOString();
  const row: ContactRow = {
    id: newId(),
    workspaceId: ctx.workspaceId,
    email,
    name,
    phone: "",
    notes: "",
    companyId: null,
    externalId: null,
    custom: {},
    blocked: false,
    avatarUrl: null,
    avatarSource: null,
    locale: null,
    createdAt: input.createdAt ?? now,
    updatedAt: now,
    deletedAt: null,
  };
  await insertContactRow(tx, row);
  await appendEvent(tx, contactCreated, {
    workspaceId: ctx.workspaceId,
    data: {
      contact: await presentContact(tx, ports.get(contactTicketCounts), row, {
        ticketCount: 0,
        tags: [],
        fields: {},
        secondaryEmails: [],
      }),
    },
  });
  return row;
}

/** The live contact holding `email` (normalised) as one of its later addresses. */
async function contactBySecondaryEmail(
  tx: Queryable,
  workspaceId: string,
  email: string,
): Promise<ContactRow | undefined> {
  const id = await contactIdBySecondaryEmail(tx, workspaceId, email);
  return id ? await findContact(tx, workspaceId, id) : undefined;
}

/** ContactRefs by id, deleted contacts included (tickets still show who wrote them). */
export async function contactRefsOf(db: Queryable, ids: string[]): Promise<Map<string, ContactRef>> {
  const out = new Map<string, ContactRef>();
  if (ids.length === 0) return out;
  for (const row of await contactRefRows(db, [...new Set(ids)])) out.set(row.id, presentContactRef(row));
  return out;
}

/** Sets or clears a contact's uploaded picture and appends `contact.updated`; another workspace's contact is 404. */
export async function setContactPicture(
  tx: Tx,
  ctx: RequestContext,
  id: string,
  url: string | null,
  now: string,
  ports: Ports,
): Promise<ContactRow> {
  const row = first(
    await tx
      .update(contacts)
      .set({ avatarUrl: url, avatarSource: url ? "upload" : null, updatedAt: now })
      .where(and(eq(contacts.workspaceId, ctx.workspaceId), eq(contacts.id, id), isNull(contacts.deletedAt)))
      .returning(),
  );
  if (!row) throw notFound("Contact");
  await appendEvent(tx, contactUpdated, {
    workspaceId: ctx.workspaceId,
    data: { contact: await presentContact(tx, ports.get(contactTicketCounts), row) },
  });
  return row;
}

/**
 * Sets a picture found automatically (`gravatar`, `widget`): never over an uploaded one, and only
 * when it changes something. Answers whether it did; `contact.updated` follows when it does.
 */
export async function setContactAutoPicture(
  tx: Tx,
  workspaceId: string,
  id: string,
  url: string | null,
  source: "gravatar" | "widget",
  now: string,
  ports: Ports,
): Promise<boolean> {
  const current = await findContact(tx, workspaceId, id);
  if (!current || current.avatarSource === "upload") return false;
  if (current.avatarUrl === url && (url === null || current.avatarSource === source)) return false;
  if (url === null && current.avatarSource !== source) return false;
  const row = one(
    await tx
      .update(contacts)
      .set({ avatarUrl: url, avatarSource: url ? source : null, updatedAt: now })
      .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, id)))
      .returning(),
  );
  await appendEvent(tx, contactUpdated, {
    workspaceId,
    data: { contact: await presentContact(tx, ports.get(contactTicketCounts), row) },
  });
  return true;
}
