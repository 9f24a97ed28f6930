import { one } from "../db/store";
import { and, eq, isNull, ne } from "drizzle-orm";
import { recordAudit } from "../audit/audit.public";
import type { RequestContext } from "../auth/context";
import { applyFieldWrite, clearFieldValues, fieldValuesOf } from "../custom-fields/custom-fields.public";
import type { Db, Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import { appendEvent } from "../events/append";
import type { Clock } from "../lib/clock";
import { definePort, type Ports } from "../lib/ports";
import { DeskError, invalidAt, notFound } from "../lib/errors";
import { applyLabelWrite, clearLabels, labelsOf } from "../labels/labels.public";
import { clearSecondaryEmails, MAX_CONTACT_EMAILS, replaceSecondaryEmails, secondaryEmailsOf } from "./contacts.emails";
import { contactDeleted, contactMerged } from "./contacts.events";
import { type ContactRow, presentContact, presentContacts } from "./contacts.present";
import { findContact } from "./contacts.service";
import { contacts } from "./contacts.table";
import { contactTicketCounts } from "./contacts.ticket-counts";

/**
 * What other features keep by contact id moves from the merged contact to the one that remains,
 * in the merge's transaction (tickets and their messages, which the tickets feature provides).
 * Answers how many records moved, for the audit entry.
 */
export type ContactMerged = (tx: Tx, workspaceId: string, fromId: string, intoId: string) => number | Promise<number>;

export const moveContactRecords = definePort<ContactMerged>("contacts.moveContactRecords");

type Deps = { db: Db; clock: Clock; ports: Ports };
const NOTES_MAX = 20_000;

const emailsOf = async (tx: Queryable, row: ContactRow): Promise<string[]> => [
  ...(row.email ? [row.email] : []),
  ...((await secondaryEmailsOf(tx, [row.id])).get(row.id) ?? []),
];

/**
 * Merges contact `id` into `intoId`: tickets move (through `moveContactRecords`), addresses join the remaining
 * contact's list after its own, labels it lacks are added (never one pushing its own label of an
 * exclusive group off), field values it lacks are copied, notes are appended, and empty name,
 * phone, company and external id are filled. The merged contact is deleted; `contact.deleted` and
 * `contact.merged` follow and the audit log records who merged what.
 */
export async function mergeContact(ctx: RequestContext, id: string, intoId: string, deps: Deps): Promise<ContactRow> {
  const moved = deps.ports.get(moveContactRecords);
  return await transact(deps.db, async (tx) => {
    const source = await findContact(tx, ctx.workspaceId, id);
    if (!source) throw notFound("Contact");
    const target = await findContact(tx, ctx.workspaceId, intoId);
    if (!target) throw invalidAt("body.into_id", "No such contact to merge into.");
    if (target.id === source.id) throw invalidAt("body.into_id", "A contact cannot be merged into itself.");
    const now = deps.clock.now().toISOString();

    const sourceEmails = await emailsOf(tx, source);
    const all = [...new Set([...(await emailsOf(tx, target)), ...sourceEmails])];
    if (all.length > MAX_CONTACT_EMAILS)
      throw new DeskError(
        422,
        "validation_failed",
        `The merged contact would have more than ${MAX_CONTACT_EMAILS} emails.`,
        [{ location: "body.into_id", message: `together they hold more than ${MAX_CONTACT_EMAILS} emails` }],
      );

    const targetTags = (await labelsOf(tx, "contacts", [target.id])).get(target.id) ?? [];
    const heldGroups = new Set(targetTags.map((t) => t.group_id).filter((g) => g !== null));
    const addTags = ((await labelsOf(tx, "contacts", [source.id])).get(source.id) ?? [])
      .filter((t) => t.group_id === null || !heldGroups.has(t.group_id))
      .map((t) => t.name);
    const values = await fieldValuesOf(tx, "contact", [source.id, target.id]);
    const targetValues = values.get(target.id) ?? {};
    const missing = Object.fromEntries(
      Object.entries(values.get(source.id) ?? {}).filter(
        ([key, value]) => value !== null && (targetValues[key] === undefined || targetValues[key] === null),
      ),
    );
    const ticketsMoved = await moved(tx, ctx.workspaceId, source.id, target.id);

    // The merged contact goes first, so the addresses it frees may join the remaining one.
    await tx
      .update(contacts)
      .set({ deletedAt: now, updatedAt: now })
      .where(and(eq(contacts.workspaceId, ctx.workspaceId), eq(contacts.id, source.id)));
    await clearSecondaryEmails(tx, source.id);
    await clearLabels(tx, "contacts", source.id);
    await clearFieldValues(tx, "contact", source.id);

    const notes = [target.notes, source.notes]
      .filter((n) => n.trim() !== "")
      .join("\n\n")
      .slice(0, NOTES_MAX);
    const row = one(
      await tx
        .update(contacts)
        .set({
          email: all[0] ?? null,
          name: target.name || source.name,
          phone: target.phone || source.phone,
          notes,
          companyId: target.companyId ?? source.companyId,
          externalId: target.externalId ?? source.externalId,
          updatedAt: now,
        })
        .where(and(eq(contacts.workspaceId, ctx.workspaceId), eq(contacts.id, target.id)))
        .returning(),
    );
    await replaceSecondaryEmails(tx, ctx.workspaceId, target.id, all.slice(1), now);
    if (addTags.length > 0) await applyLabelWrite(tx, ctx, "contacts", target.id, { add_tags: addTags }, deps.ports);
    if (Object.keys(missing).length > 0) await applyFieldWrite(tx, ctx, "contact", target.id, missing);

    const into = await presentContact(tx, deps.ports.get(contactTicketCounts), row);
    await appendEvent(tx, contactDeleted, { workspaceId: ctx.workspaceId, data: { contact_id: source.id } });
    await appendEvent(tx, contactMerged, { workspaceId: ctx.workspaceId, data: { contact_id: source.id, into } });
    await recordAudit(tx, ctx, {
      action: "contact.merged",
      entityType: "contact",
      entityId: target.id,
      data: {
        merged_id: source.id,
        merged_name: source.name,
        merged_emails: sourceEmails,
        tickets_moved: ticketsMoved,
        tags_added: addTags,
        fields_copied: Object.keys(missing),
      },
    });
    return row;
  });
}

const domainOf = (email: string): string => email.slice(email.lastIndexOf("@") + 1);
const CANDIDATES = 200;
const DUPLICATES = 10;

/**
 * Likely duplicates of a contact: other live contacts with exactly the same name and an address at
 * a domain the contact also has. Reads at most 200 same-name rows, through the (workspace, name) index.
 */
export async function contactDuplicates(db: Queryable, ctx: RequestContext, id: string, ports: Ports) {
  const row = await findContact(db, ctx.workspaceId, id);
  if (!row) throw notFound("Contact");
  const name = row.name;
  const domains = new Set((await emailsOf(db, row)).map(domainOf));
  if (name.trim() === "" || domains.size === 0) return { data: [] };
  const candidates = await db
    .select()
    .from(contacts)
    .where(
      and(
        eq(contacts.workspaceId, ctx.workspaceId),
        isNull(contacts.deletedAt),
        ne(contacts.id, row.id),
        eq(contacts.name, name),
      ),
    )
    .limit(CANDIDATES);
  const secondaries = await secondaryEmailsOf(
    db,
    candidates.map((c) => c.id),
  );
  const matches = candidates.filter((c) =>
    [...(c.email ? [c.email] : []), ...(secondaries.get(c.id) ?? [])].some((e) => domains.has(domainOf(e))),
  );
  return { data: await presentContacts(db, ports.get(contactTicketCounts), matches.slice(0, DUPLICATES)) };
}
