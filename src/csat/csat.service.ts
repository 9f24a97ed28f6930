import { first, one } from "../db/store";
import { and, desc, eq, gt } from "drizzle-orm";
import { z } from "zod";
import { contactRefsOf } from "../contacts/contacts.public";
import { chatEmailConfirmed } from "../widget/widget.public";
import type { Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import type { StoredEvent } from "../events/envelope";
import { enqueue } from "../jobs/enqueue";
import { type Locale, matchLocale, workspaceLocales } from "../i18n/locales";
import { findContact } from "../contacts/contacts.public";
import { sha256Hex } from "../lib/crypto";
import { notFound } from "../lib/errors";
import { newId, randomToken } from "../lib/ids";
import { patchTicketFields, ticketOfWorkspace, type TicketRow } from "../tickets/tickets.public";
import { workspaceSettingsOf } from "../workspaces/workspaces.public";
import { csatMailJob } from "./csat.jobs";
import type { CsatRequestSchema } from "./csat.schemas";
import { csatRequests, type CsatRequestRow } from "./csat.table";

/** A rating link works for 30 days after the solve (DECISIONS.md), then answers 404. */
export const CSAT_TTL_MS = 30 * 24 * 3600 * 1000;

const SolvedTicketEvent = z.object({
  ticket: z.object({
    id: z.string(),
    status: z.string(),
    channel: z.string(),
    spam: z.boolean(),
    merged_into_id: z.string().nullable(),
    contact: z.object({ id: z.string() }).nullable(),
  }),
  changes: z.array(z.string()),
});

/** True when the workspace asks its customers for a rating (WorkspaceSettings `csat_enabled`). */
export async function csatEnabled(db: Queryable, workspaceId: string): Promise<boolean> {
  return (await workspaceSettingsOf(db, workspaceId))?.settings.csat_enabled === true;
}

/**
 * The reaction to a `ticket.updated` that solved a ticket: when the workspace has CSAT on and the
 * ticket's contact has an email, stores one rating request (keyed by the event, so one solve gives
 * one request) and enqueues its mail. Not for spam, not for a ticket merged away (a merge closes,
 * it never solves), not for a ticket already solved before this change.
 */
export async function requestRatingOnSolve(tx: Tx, event: StoredEvent, deps: Deps): Promise<void> {
  const parsed = SolvedTicketEvent.safeParse(event.data);
  if (!parsed.success) return;
  const { ticket, changes } = parsed.data;
  if (!changes.includes("status") || ticket.status !== "solved" || ticket.spam || ticket.merged_into_id) return;
  if (!ticket.contact || !(await csatEnabled(tx, event.workspace_id))) return;
  const email = (await contactRefsOf(tx, [ticket.contact.id])).get(ticket.contact.id)?.email;
  if (!email) return;
  // A chat visitor's typed address is theirs to confirm before it gets anything it did not ask for.
  if (ticket.channel === "chat" && !(await chatEmailConfirmed(tx, event.workspace_id, ticket.contact.id, email)))
    return;
  const token = randomToken(32);
  const now = deps.clock.now();
  const inserted = first(
    await tx
      .insert(csatRequests)
      .values({
        id: newId(),
        workspaceId: event.workspace_id,
        ticketId: ticket.id,
        eventId: event.id,
        tokenHash: sha256Hex(token),
        email,
        expiresAt: new Date(now.getTime() + CSAT_TTL_MS).toISOString(),
        createdAt: now.toISOString(),
      })
      .onConflictDoNothing()
      .returning({ id: csatRequests.id }),
  );
  if (!inserted) return;
  await enqueue(
    tx,
    csatMailJob,
    { request_id: inserted.id, sealed_token: deps.secrets.seal(token) },
    // DESK_CSAT_DELAY (default 10 minutes): not in the same second as the solving reply, and a
    // reopen in between (the customer answered, the agent was too quick) cancels it.
    { workspaceId: event.workspace_id, runAt: new Date(now.getTime() + deps.config.csatDelayMs) },
  );
}

type OpenRequest = {
  request: CsatRequestRow;
  ticket: TicketRow;
  /** `locale`: the workspace's language (WorkspaceSettings `locale`), for a customer whose own is unknown. */
  workspace: { name: string; brandColor: string | null; locale: Locale };
};

/**
 * The live request a token names: unknown, expired, about a deleted or merged ticket, about a ticket
 * reopened since its solve, or replaced by the request of a later solve: all answer 404. A reopened
 * ticket is no longer the support being rated, and a link from an earlier solve must not rate the next.
 */
export async function openRequestOf(db: Queryable, token: string, now: string): Promise<OpenRequest> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw notFound("Rating request");
  const request = first(
    await db
      .select()
      .from(csatRequests)
      .where(and(eq(csatRequests.tokenHash, sha256Hex(token)), gt(csatRequests.expiresAt, now)))
      .limit(1),
  );
  const ticket = request && (await ticketOfWorkspace(db, request.workspaceId, request.ticketId));
  const workspace = request && (await workspaceSettingsOf(db, request.workspaceId));
  if (!request || !ticket || ticket.deletedAt || ticket.mergedIntoId || !workspace) throw notFound("Rating request");
  if (ticket.status !== "solved" && ticket.status !== "closed") throw notFound("Rating request");
  const newest = first(
    await db
      .select({ id: csatRequests.id })
      .from(csatRequests)
      .where(and(eq(csatRequests.workspaceId, request.workspaceId), eq(csatRequests.ticketId, request.ticketId)))
      .orderBy(desc(csatRequests.createdAt), desc(csatRequests.id))
      .limit(1),
  );
  if (newest?.id !== request.id) throw notFound("Rating request");
  const color = workspace.settings.brand_color;
  return {
    request,
    ticket,
    workspace: {
      name: workspace.name,
      brandColor: typeof color === "string" ? color : null,
      locale: workspaceLocales(workspace.settings).locale,
    },
  };
}

/** The customer's own language when Desk speaks it (Contact.locale): the one the rating mail was in. */
export async function contactLocaleOf(
  db: Queryable,
  workspaceId: string,
  contactId: string | null,
): Promise<Locale | null> {
  const tag = contactId ? (await findContact(db, workspaceId, contactId))?.locale : null;
  return tag ? matchLocale(tag) : null;
}

export function presentRequest(open: OpenRequest): z.infer<typeof CsatRequestSchema> {
  return {
    workspace: { name: open.workspace.name, brand_color: open.workspace.brandColor },
    ticket: { number: open.ticket.number, subject: open.ticket.subject },
    score: open.request.score,
    comment: open.request.comment ?? "",
    rated_at: open.request.ratedAt,
    expires_at: open.request.expiresAt,
  };
}

/**
 * Stores the customer's rating on a live ticket: `Ticket.csat`, a `csat_received` activity `{ score }`
 * attributed to the contact, and `ticket.updated` with `csat` in `changes`. A second rating replaces
 * the first (and is logged again). 404 when the ticket is gone (deleted or merged away).
 */
async function rateOnTicket(
  tx: Tx,
  workspaceId: string,
  ticketId: string,
  csat: { score: number; comment: string },
  now: string,
): Promise<TicketRow> {
  const received = { type: "csat_received", data: { score: csat.score }, actor: "contact" as const };
  const row = await patchTicketFields(tx, workspaceId, ticketId, { csat }, now, received);
  if (!row) throw notFound("Ticket");
  return row;
}

/**
 * Records a rating: on the request and on the ticket (`Ticket.csat`, a `csat_received` activity,
 * `ticket.updated`), in one transaction. A second rating through the same link replaces the first.
 */
export async function rateTicket(
  token: string,
  input: { score: number; comment?: string },
  deps: Deps,
): Promise<OpenRequest> {
  const now = deps.clock.now().toISOString();
  return await transact(deps.db, async (tx) => {
    const open = await openRequestOf(tx, token, now);
    const comment = (input.comment ?? "").trim();
    const request = one(
      await tx
        .update(csatRequests)
        .set({ score: input.score, comment, ratedAt: now })
        .where(eq(csatRequests.id, open.request.id))
        .returning(),
    )!;
    const ticket = await rateOnTicket(
      tx,
      open.request.workspaceId,
      open.ticket.id,
      { score: input.score, comment },
      now,
    );
    return { ...open, request, ticket };
  });
}
