import { first, one } from "../db/store";
import { and, asc, eq, gt, or } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import { decodeCursor, pageOf } from "../db/cursor";
import type { Db, Queryable } from "../db/database";
import { transact } from "../db/tx";
import { mailboxCreated, mailboxDeleted, mailboxUpdated } from "./mailboxes.events";
import { appendEvent } from "../events/append";
import { conflict, invalidAt, notFound } from "../lib/errors";
import type { SecretBox } from "../lib/crypto";
import { newId } from "../lib/ids";
import { sanitizeHtmlBody } from "../lib/sanitize";
import { slugify } from "../lib/slug";
import { teamsAmong } from "../teams/teams.public";
import { randomBytes } from "node:crypto";
import { presentMailbox, type MailboxRow } from "./mailboxes.present";
import { checkKindSettings, normalizeTrustedSenders } from "./mailboxes.rules";
import type { CreateMailboxInput, UpdateMailboxInput } from "./mailboxes.schemas";
import { mailboxes, type MailboxConfig } from "./mailboxes.table";
import type { Clock } from "../lib/clock";

type MailboxDeps = {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  config: { inboundDomain: string; smtpRelayUrl: string | null };
};

export async function findMailbox(db: Queryable, workspaceId: string, id: string): Promise<MailboxRow | undefined> {
  return first(
    await db
      .select()
      .from(mailboxes)
      .where(and(eq(mailboxes.workspaceId, workspaceId), eq(mailboxes.id, id)))
      .limit(1),
  );
}

export async function getMailbox(db: Queryable, ctx: RequestContext, id: string): Promise<MailboxRow> {
  const row = await findMailbox(db, ctx.workspaceId, id);
  if (!row) throw notFound("Mailbox");
  return row;
}

export async function listMailboxes(
  db: Queryable,
  ctx: RequestContext,
  page: { limit: number; cursor?: string },
  relayConfigured: boolean,
) {
  const after = decodeCursor(page.cursor, 2) as [string, string] | null;
  const rows = await db
    .select()
    .from(mailboxes)
    .where(
      and(
        eq(mailboxes.workspaceId, ctx.workspaceId),
        after
          ? or(gt(mailboxes.createdAt, after[0]), and(eq(mailboxes.createdAt, after[0]), gt(mailboxes.id, after[1])))
          : undefined,
      ),
    )
    .orderBy(asc(mailboxes.createdAt), asc(mailboxes.id))
    .limit(page.limit + 1);
  return await pageOf(
    rows,
    page.limit,
    (row) => presentMailbox(row, relayConfigured),
    (row) => [row.createdAt, row.id],
  );
}

async function newForwardingAddress(db: Queryable, email: string, inboundDomain: string): Promise<string> {
  const local = slugify(email.split("@")[0] ?? "support", "-", 24) || "support";
  for (;;) {
    const candidate = `${local}-${randomBytes(5).toString("hex")}@${inboundDomain}`.toLowerCase();
    if (
      !first(
        await db
          .select({ id: mailboxes.id })
          .from(mailboxes)
          .where(eq(mailboxes.forwardingAddress, candidate))
          .limit(1),
      )
    )
      return candidate;
  }
}

async function checkTeam(db: Queryable, ctx: RequestContext, teamId: string | null | undefined): Promise<void> {
  if (!teamId) return;
  if (!(await teamsAmong(db, ctx.workspaceId, [teamId])).has(teamId)) throw invalidAt("body.team_id", "No such team.");
}

async function checkEmailFree(db: Queryable, email: string, exceptId: string | null): Promise<void> {
  const taken = first(
    await db
      .select({ id: mailboxes.id })
      .from(mailboxes)
      .where(or(eq(mailboxes.email, email), eq(mailboxes.forwardingAddress, email)))
      .limit(1),
  );
  if (taken && taken.id !== exceptId) throw conflict("A mailbox with this address already exists.");
}

/** Audit data never holds secrets: it names which ones changed. */
function auditData(row: MailboxRow, secretsChanged: string[]) {
  return {
    name: row.name,
    email: row.email,
    inbound_kind: row.inboundKind,
    outbound_kind: row.outboundKind,
    secrets_changed: secretsChanged,
  };
}

export async function createMailbox(
  ctx: RequestContext,
  input: CreateMailboxInput,
  deps: MailboxDeps,
): Promise<MailboxRow> {
  const email = input.email.toLowerCase();
  const config: MailboxConfig = { ...input.config };
  checkKindSettings(
    input.inbound_kind,
    input.outbound_kind,
    config,
    Boolean(input.password),
    Boolean(input.smtp_password),
    false,
  );
  const trusted = normalizeTrustedSenders(input.trusted_form_senders ?? []);
  const now = deps.clock.now().toISOString();
  return await transact(deps.db, async (tx) => {
    await checkEmailFree(tx, email, null);
    await checkTeam(tx, ctx, input.team_id);
    const row = one(
      await tx
        .insert(mailboxes)
        .values({
          id: newId(),
          workspaceId: ctx.workspaceId,
          name: input.name,
          email,
          displayName: input.display_name ?? input.name,
          inboundKind: input.inbound_kind,
          outboundKind: input.outbound_kind,
          forwardingAddress:
            input.inbound_kind === "forwarding"
              ? await newForwardingAddress(tx, email, deps.config.inboundDomain)
              : null,
          config,
          teamId: input.team_id ?? null,
          signatureHtml: sanitizeHtmlBody(input.signature_html ?? ""),
          autoReplyEnabled: input.auto_reply_enabled ?? false,
          autoReplySubject: input.auto_reply_subject ?? "",
          autoReplyHtml: sanitizeHtmlBody(input.auto_reply_html ?? ""),
          status: "active",
          trustedFormSenders: trusted,
          passwordSealed: input.password ? deps.secrets.seal(input.password) : null,
          smtpPasswordSealed: input.smtp_password ? deps.secrets.seal(input.smtp_password) : null,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    await appendEvent(tx, mailboxCreated, {
      workspaceId: ctx.workspaceId,
      data: { mailbox: presentMailbox(row, deps.config.smtpRelayUrl !== null) },
    });
    await recordAudit(tx, ctx, {
      action: "mailbox.created",
      entityType: "mailbox",
      entityId: row.id,
      data: auditData(row, secretNames(input)),
    });
    return row;
  });
}

const secretNames = (input: { password?: string; smtp_password?: string }) =>
  [input.password ? "password" : null, input.smtp_password ? "smtp_password" : null].filter(
    (n): n is string => n !== null,
  );

export async function updateMailbox(
  ctx: RequestContext,
  id: string,
  input: UpdateMailboxInput,
  deps: MailboxDeps,
): Promise<MailboxRow> {
  const trusted = input.trusted_form_senders ? normalizeTrustedSenders(input.trusted_form_senders) : undefined;
  return await transact(deps.db, async (tx) => {
    const current = await getMailbox(tx, ctx, id);
    const email = input.email?.toLowerCase() ?? current.email;
    if (email !== current.email) await checkEmailFree(tx, email, current.id);
    await checkTeam(tx, ctx, input.team_id);
    const inboundKind = input.inbound_kind ?? current.inboundKind;
    const outboundKind = input.outbound_kind ?? current.outboundKind;
    const config: MailboxConfig = input.config ? { ...current.config, ...input.config } : current.config;
    const oauthConnected = Boolean(current.oauthSealed);
    checkKindSettings(
      inboundKind,
      outboundKind,
      config,
      Boolean(input.password ?? current.passwordSealed),
      Boolean(input.smtp_password ?? current.smtpPasswordSealed),
      oauthConnected,
    );
    const reactivated = input.status === "active" && current.status !== "active";
    const patch: Partial<typeof mailboxes.$inferInsert> = {
      name: input.name,
      email,
      displayName: input.display_name,
      inboundKind,
      outboundKind,
      config,
      teamId: input.team_id === undefined ? undefined : input.team_id,
      signatureHtml: input.signature_html === undefined ? undefined : sanitizeHtmlBody(input.signature_html),
      autoReplyEnabled: input.auto_reply_enabled,
      autoReplySubject: input.auto_reply_subject,
      autoReplyHtml: input.auto_reply_html === undefined ? undefined : sanitizeHtmlBody(input.auto_reply_html),
      trustedFormSenders: trusted,
      status: input.status,
      lastError: reactivated ? "" : undefined,
      syncFailures: reactivated ? 0 : undefined,
      passwordSealed: input.password ? deps.secrets.seal(input.password) : undefined,
      smtpPasswordSealed: input.smtp_password ? deps.secrets.seal(input.smtp_password) : undefined,
      forwardingAddress:
        inboundKind === "forwarding"
          ? (current.forwardingAddress ?? (await newForwardingAddress(tx, email, deps.config.inboundDomain)))
          : current.forwardingAddress,
      updatedAt: deps.clock.now().toISOString(),
    };
    const row = one(
      await tx
        .update(mailboxes)
        .set(patch)
        .where(and(eq(mailboxes.workspaceId, ctx.workspaceId), eq(mailboxes.id, id)))
        .returning(),
    );
    await appendEvent(tx, mailboxUpdated, {
      workspaceId: ctx.workspaceId,
      data: { mailbox: presentMailbox(row, deps.config.smtpRelayUrl !== null) },
    });
    await recordAudit(tx, ctx, {
      action: "mailbox.updated",
      entityType: "mailbox",
      entityId: row.id,
      data: {
        ...auditData(row, secretNames(input)),
        fields: Object.keys(input).filter((k) => k !== "password" && k !== "smtp_password"),
      },
    });
    return row;
  });
}

export async function deleteMailbox(ctx: RequestContext, id: string, deps: { db: Db }): Promise<void> {
  await transact(deps.db, async (tx) => {
    const current = await getMailbox(tx, ctx, id);
    await tx.delete(mailboxes).where(and(eq(mailboxes.workspaceId, ctx.workspaceId), eq(mailboxes.id, id)));
    await appendEvent(tx, mailboxDeleted, { workspaceId: ctx.workspaceId, data: { mailbox_id: id } });
    await recordAudit(tx, ctx, {
      action: "mailbox.deleted",
      entityType: "mailbox",
      entityId: id,
      data: auditData(current, []),
    });
  });
}

/**
 * Records what the system learnt about a mailbox (sync success or failure). Emits
 * mailbox.updated only when status or last_error changed, so a healthy poller stays quiet.
 */
export async function recordMailboxHealth(
  db: Db,
  mailboxId: string,
  outcome: { ok: true; syncedAt?: string } | { ok: false; error: string },
  relayConfigured: boolean,
  clock: Clock,
): Promise<MailboxRow | undefined> {
  return await transact(db, async (tx) => {
    const current = first(await tx.select().from(mailboxes).where(eq(mailboxes.id, mailboxId)).limit(1));
    if (!current) return undefined;
    const status = current.status === "disabled" ? "disabled" : outcome.ok ? "active" : "error";
    const lastError = outcome.ok ? "" : outcome.error.slice(0, 500);
    const row = one(
      await tx
        .update(mailboxes)
        .set({
          status,
          lastError,
          lastSyncedAt: outcome.ok && outcome.syncedAt ? outcome.syncedAt : current.lastSyncedAt,
          syncFailures: outcome.ok ? 0 : current.syncFailures + 1,
          updatedAt:
            status !== current.status || lastError !== current.lastError
              ? clock.now().toISOString()
              : current.updatedAt,
        })
        .where(eq(mailboxes.id, mailboxId))
        .returning(),
    );
    if (status !== current.status || lastError !== current.lastError) {
      await appendEvent(tx, mailboxUpdated, {
        workspaceId: row.workspaceId,
        data: { mailbox: presentMailbox(row, relayConfigured) },
      });
    }
    return row;
  });
}
