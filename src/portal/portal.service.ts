import { first } from "../db/store";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { systemContext } from "../auth/context";
import { attachmentLinks } from "../attachments/attachments.public";
import { findContact, findOrCreateContactByEmail, setContactLocaleIfUnset } from "../contacts/contacts.public";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { helpCenterUrlOf } from "../help-center/help-center.public";
import { acceptedLanguages, matchLocale, negotiateLocale, type Locale, workspaceLocales } from "../i18n/locales";
import { enqueue } from "../jobs/enqueue";
import { sha256Hex } from "../lib/crypto";
import { DeskError, notFound } from "../lib/errors";
import { newId, randomToken } from "../lib/ids";
import {
  addMessage,
  createTicketWithMessage,
  getTicket,
  listTickets,
  publicMessagesOf,
  TicketListQuery,
  type TicketJson,
  type TicketRow,
  updateTicket,
} from "../tickets/tickets.public";
import { findWorkspace, findWorkspaceBySlug } from "../workspaces/workspaces.public";
import { portalConfirmationJob, portalLinkMailJob } from "./portal.jobs";
import { portalLinks } from "./portal.table";

/** A sign-in link works this long, once (DECISIONS.md "Daily work"). */
export const LINK_TTL_MS = 15 * 60_000;
/** A portal session lasts a day; signing in again is one mail away. */
export const SESSION_TTL_MS = 24 * 60 * 60_000;
/** Tickets the portal lists, newest activity first. */
export const PORTAL_TICKETS = 100;

/** The workspace a portal or contact form serves, with what its pages show of it. */
export type PortalSite = {
  workspaceId: string;
  slug: string;
  name: string;
  brandColor: string | null;
  /** `{base_url}/portal/{slug}`, no trailing slash. */
  url: string;
  /** The help center's address while it is on, else null. */
  helpCenterUrl: string | null;
  /** The language of the pages (see `inLanguage`); the workspace's `locale` until a request picks one. */
  locale: Locale;
  /** The workspace's languages (WorkspaceSettings `locales`), among which Accept-Language picks. */
  locales: Locale[];
};

/** `locale`: the signed-in contact's own language (Contact.locale), null while unknown. */
export type PortalSession = { workspaceId: string; contactId: string; email: string; locale?: string | null };

/**
 * The site in the language its pages speak to this request (DECISIONS.md "Languages"): a signed-in
 * contact's own when Desk ships it, else Accept-Language among the workspace's languages, else its `locale`.
 */
export function inLanguage(site: PortalSite, request: Request, session?: PortalSession | null): PortalSite {
  const own = session?.locale ? matchLocale(session.locale) : null;
  const locale =
    own ?? negotiateLocale(acceptedLanguages(request.headers.get("accept-language")), site.locales, site.locale);
  return locale === site.locale ? site : { ...site, locale };
}

export async function portalSiteAt(deps: Pick<Deps, "db" | "config">, slug: string): Promise<PortalSite | null> {
  const workspace = await findWorkspaceBySlug(deps.db, slug);
  return workspace ? siteOf(deps, workspace) : null;
}

/** The portal of a workspace by its id (the link in customer mail); null for an unknown or deleted one. */
export async function portalSiteOfWorkspace(
  deps: Pick<Deps, "db" | "config">,
  workspaceId: string,
): Promise<PortalSite | null> {
  const workspace = await findWorkspace(deps.db, workspaceId);
  return workspace ? siteOf(deps, workspace) : null;
}

function siteOf(
  deps: Pick<Deps, "config">,
  workspace: NonNullable<Awaited<ReturnType<typeof findWorkspaceBySlug>>>,
): PortalSite {
  const baseUrl = deps.config.baseUrl;
  const brand = workspace.settings?.brand_color;
  const languages = workspaceLocales(workspace.settings);
  return {
    locale: languages.locale,
    locales: languages.locales,
    workspaceId: workspace.id,
    slug: workspace.slug,
    name: workspace.name,
    brandColor: typeof brand === "string" ? brand : null,
    url: `${baseUrl}/portal/${encodeURIComponent(workspace.slug)}`,
    helpCenterUrl: helpCenterUrlOf(baseUrl, workspace),
  };
}

/** Where a ticket lives in the portal: the link customer mail carries ("View your request"). */
export const portalTicketUrl = (site: Pick<PortalSite, "url">, number: number) => `${site.url}/tickets/${number}`;

/**
 * Stores a one-time link for `email` and queues its mail. Called for any well-formed address: the
 * contact is found or made only when the link is used, so the answer never tells whether the
 * address is a contact (the limits per address and per client bound what it can be used for).
 */
export async function requestSignInLink(deps: Deps, site: PortalSite, email: string): Promise<void> {
  const token = randomToken();
  const now = deps.clock.now();
  await transact(deps.db, async (tx) => {
    // Expired links are kept no longer than needed: the table stays the size of the last 15 minutes.
    await tx.delete(portalLinks).where(lt(portalLinks.expiresAt, new Date(now.getTime() - LINK_TTL_MS).toISOString()));
    const id = newId();
    await tx.insert(portalLinks).values({
      id,
      workspaceId: site.workspaceId,
      email,
      tokenHash: sha256Hex(token),
      expiresAt: new Date(now.getTime() + LINK_TTL_MS).toISOString(),
      createdAt: now.toISOString(),
    });
    await enqueue(
      tx,
      portalLinkMailJob,
      { link_id: id, sealed_url: deps.secrets.seal(`${site.url}/sign-in/${token}`), locale: site.locale },
      { workspaceId: site.workspaceId },
    );
  });
}

/** Whether `token` is an unused, unexpired link of this site (the page that offers to sign in). */
export async function linkIsLive(deps: Pick<Deps, "db" | "clock">, site: PortalSite, token: string): Promise<boolean> {
  return !!first(
    await deps.db
      .select({ id: portalLinks.id })
      .from(portalLinks)
      .where(liveLink(site, token, deps.clock.now().toISOString()))
      .limit(1),
  );
}

const liveLink = (site: PortalSite, token: string, now: string) =>
  and(
    eq(portalLinks.tokenHash, sha256Hex(token)),
    eq(portalLinks.workspaceId, site.workspaceId),
    isNull(portalLinks.usedAt),
    gt(portalLinks.expiresAt, now),
  );

/** Spends the link (once: the update matches only an unused row) and finds or makes its contact. */
export async function redeemSignInLink(deps: Deps, site: PortalSite, token: string): Promise<PortalSession | null> {
  const now = deps.clock.now().toISOString();
  return await transact(deps.db, async (tx) => {
    const link = first(
      await tx
        .update(portalLinks)
        .set({ usedAt: now })
        .where(liveLink(site, token, now))
        .returning({ email: portalLinks.email }),
    );
    if (!link) return null;
    const contact = await findOrCreateContactByEmail(
      tx,
      systemContext(site.workspaceId),
      { email: link.email },
      deps.ports,
    );
    // The language the customer reads the portal in becomes theirs, unless they have one already.
    await setContactLocaleIfUnset(tx, site.workspaceId, contact.id, site.locale, now, deps.ports);
    return { workspaceId: site.workspaceId, contactId: contact.id, email: link.email };
  });
}

/** A session's contact while it may still use the portal (not deleted or merged away, not blocked), with its language. */
export async function portalContactOf(
  deps: Pick<Deps, "db">,
  workspaceId: string,
  contactId: string,
): Promise<{ locale: string | null } | null> {
  const contact = await findContact(deps.db, workspaceId, contactId);
  return contact && !contact.blocked ? { locale: contact.locale } : null;
}

/** The session's tickets (every channel), newest activity first; notes and agent-only fields are never read here. */
export async function ticketsOfSession(deps: Deps, session: PortalSession): Promise<TicketJson[]> {
  const query = TicketListQuery.parse({ contact_id: session.contactId, limit: PORTAL_TICKETS, spam: "false" });
  return (await listTickets(deps.db, systemContext(session.workspaceId), query)).data;
}

/** The session contact's ticket with this number: 404 for any other, exactly as for a missing one. */
export async function ticketOfSession(deps: Deps, session: PortalSession, number: string): Promise<TicketRow> {
  if (!/^[1-9][0-9]{0,9}$/.test(number)) throw notFound("Ticket");
  let ticket: TicketRow;
  try {
    ticket = await getTicket(deps.db, systemContext(session.workspaceId), number);
  } catch (error) {
    if (error instanceof DeskError && error.status === 404) throw notFound("Ticket");
    throw error;
  }
  if (ticket.contactId !== session.contactId || ticket.spam || ticket.mergedIntoId) throw notFound("Ticket");
  return ticket;
}

/** The ticket's public messages: replies only, never notes. */
export const publicThreadOf = async (deps: Deps, ticket: TicketRow) =>
  await publicMessagesOf(deps.db, ticket.id, attachmentLinks(deps));

/** The customer's reply, as their own message (it reopens a solved ticket like any customer reply). */
export async function replyAsContact(
  deps: Deps,
  session: PortalSession,
  ticket: TicketRow,
  input: { body: string; attachmentIds: string[] },
) {
  return await addMessage(
    systemContext(session.workspaceId),
    ticket.id,
    {
      kind: "reply",
      direction: "inbound",
      body_text: input.body,
      attachment_ids: input.attachmentIds,
      author: { type: "contact", contactId: session.contactId },
    },
    deps,
  );
}

/** A new `portal` ticket from the signed-in contact. */
export async function openRequest(
  deps: Deps,
  session: PortalSession,
  input: { subject: string; body: string; attachmentIds: string[] },
): Promise<TicketRow> {
  const contact = await findContact(deps.db, session.workspaceId, session.contactId);
  if (!contact) throw notFound("Contact");
  return (
    await createTicketWithMessage(
      systemContext(session.workspaceId),
      {
        subject: input.subject,
        channel: "portal",
        contact_id: contact.id,
        body_text: input.body,
        attachment_ids: input.attachmentIds,
        direction: "inbound",
        author: { type: "contact", contactId: contact.id },
        email: { from_email: contact.email ?? "", from_name: contact.name },
      },
      deps,
    )
  ).ticket;
}

/**
 * The contact form's submission: the contact found or made by address, a `portal` ticket with their
 * message, and the confirmation mail (with the portal link) queued in the same transaction.
 */
export async function submitContactForm(
  deps: Deps,
  site: PortalSite,
  input: { name: string; email: string; subject: string; body: string; attachmentIds: string[] },
): Promise<TicketRow> {
  return await transact(deps.db, async (tx) => {
    const ctx = systemContext(site.workspaceId);
    const contact = await findOrCreateContactByEmail(tx, ctx, { email: input.email, name: input.name }, deps.ports);
    await setContactLocaleIfUnset(
      tx,
      site.workspaceId,
      contact.id,
      site.locale,
      deps.clock.now().toISOString(),
      deps.ports,
    );
    const { ticket } = await createTicketWithMessage(
      ctx,
      {
        subject: input.subject,
        channel: "portal",
        contact_id: contact.id,
        body_text: input.body,
        attachment_ids: input.attachmentIds,
        direction: "inbound",
        author: { type: "contact", contactId: contact.id },
        email: { from_email: contact.email ?? input.email, from_name: input.name || contact.name },
      },
      deps,
    );
    // A blocked customer's message is kept as spam, as their mail is, and gets no confirmation.
    if (contact.blocked) return await updateTicket(ctx, ticket.id, { spam: true }, deps);
    await enqueue(
      tx,
      portalConfirmationJob,
      { ticket_id: ticket.id, workspace_id: site.workspaceId },
      { workspaceId: site.workspaceId },
    );
    return ticket;
  });
}
