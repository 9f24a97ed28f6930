import { first } from "../db/store";
import { and, eq, inArray, isNull, lt, or } from "drizzle-orm";
import { systemContext, type RequestContext } from "../auth/context";
import { discardAttachments, storeAttachmentAsync } from "../attachments/attachments.public";
import {
  createCompany,
  createContact,
  findOrCreateContactByEmail,
  updateCompany,
  updateContact,
} from "../contacts/contacts.public";
import type { Tx } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { withoutReactions } from "../events/consumers";
import { DeskError } from "../lib/errors";
import { assignableMemberByEmail } from "../members/members.public";
import { rememberMessageId } from "../outbound/outbound.public";
import {
  importMessage,
  importTicket,
  updateImportedTicket,
  type ImportedMessageInput,
} from "../tickets/tickets.public";
import { runCsvImport } from "./imports.csv";
import { writeSourceFields } from "./imports.fields";
import { inlineImages } from "./imports.images";
import { HttpStatusError } from "./imports.http";
import { mappingOf, saveMapping, unchanged, type MappingScope } from "./imports.mappings";
import { sourceFor } from "./imports.sources";
import { CreateImportBody } from "./imports.schemas";
import { emitImportUpdated } from "./imports.present";
import {
  SourceError,
  type ImportSource,
  type Phase,
  type SourceCompany,
  type SourceMessage,
  type SourcePerson,
  type SourceTicket,
} from "./imports.source";
import { imports, type ImportCounts, type ImportError, type ImportRow, type ImportState } from "./imports.table";

/** How long a runner holds an import (renewed while it works); a runner that died lets another go on after it. */
const LEASE_MS = 60_000;
const RENEW_MS = 15_000;

export type LeaseHolder = "job" | "cli";
export const MAX_ERRORS = 100;
/** Tickets of a page fetched (comments, files) at once. */
const TICKET_CONCURRENCY = 8;

type Progress = { counts: ImportCounts; errors: ImportError[]; done: number };

export type StepOutcome = { kind: "finished" } | { kind: "more" } | { kind: "busy"; retryInMs: number };

/** Builds the source of a run from its opened options (each source is one file). */
function sourceOf(row: ImportRow, options: unknown, deps: Pick<Deps, "config">): ImportSource {
  const parsed = CreateImportBody.parse({ source: row.source, options });
  return sourceFor(parsed, deps.config);
}

async function takeLease(
  deps: Deps,
  id: string,
  holder: LeaseHolder,
): Promise<ImportRow | { busyUntil: string } | null> {
  const now = deps.clock.now();
  const until = new Date(now.getTime() + LEASE_MS).toISOString();
  return await transact(deps.db, async (tx) => {
    const taken = first(
      await tx
        .update(imports)
        .set({ leaseUntil: until, leaseHolder: holder })
        .where(
          and(
            eq(imports.id, id),
            inArray(imports.status, ["queued", "running"]),
            or(
              isNull(imports.leaseUntil),
              lt(imports.leaseUntil, now.toISOString()),
              // One job per import and the runner runs it once at a time: a job's lease is a crashed run of this same job.
              holder === "job" ? eq(imports.leaseHolder, "job") : undefined,
            ),
          ),
        )
        .returning(),
    );
    if (taken) return taken;
    const row = first(await tx.select().from(imports).where(eq(imports.id, id)).limit(1));
    if (!row || (row.status !== "queued" && row.status !== "running")) return null;
    return { busyUntil: row.leaseUntil ?? now.toISOString() };
  });
}

/** Problems of a record that was imported all the same (a field value, an image): listed, not counted as failed. */
function addProblems(progress: Progress, record: string, problems: string[]): void {
  for (const message of problems)
    if (progress.errors.length < MAX_ERRORS) progress.errors.push({ record, message: message.slice(0, 500) });
}

function addError(progress: Progress, record: string, message: string): void {
  progress.counts.failed++;
  if (progress.errors.length < MAX_ERRORS) progress.errors.push({ record, message: message.slice(0, 500) });
}

const messageOf = (error: unknown): string =>
  error instanceof DeskError
    ? [error.detail, ...(error.errors ?? []).map((e) => `${e.location}: ${e.message}`)].join(" ")
    : error instanceof Error
      ? error.message
      : String(error);

/**
 * Commits where the run stands (phase, cursors, counts, errors) and tells the workspace; answers
 * the stored row, or null when the run was canceled meanwhile (its state is then left as it is).
 */
async function commitProgress(
  deps: Deps,
  id: string,
  set: Partial<typeof imports.$inferInsert>,
): Promise<ImportRow | null> {
  const now = deps.clock.now().toISOString();
  return await transact(deps.db, async (tx) => {
    const row = first(
      await tx
        .update(imports)
        .set({ ...set, updatedAt: now, leaseUntil: new Date(deps.clock.now().getTime() + LEASE_MS).toISOString() })
        .where(and(eq(imports.id, id), inArray(imports.status, ["queued", "running"])))
        .returning(),
    );
    if (row) await emitImportUpdated(tx, row);
    return row ?? null;
  });
}

async function finish(
  deps: Deps,
  id: string,
  status: "succeeded" | "failed",
  set: Partial<typeof imports.$inferInsert>,
): Promise<void> {
  const now = deps.clock.now().toISOString();
  await transact(deps.db, async (tx) => {
    const row = first(
      await tx
        .update(imports)
        // The credentials are of no use once the run is over: they are not kept.
        .set({ ...set, status, finishedAt: now, optionsSealed: null, leaseUntil: null, updatedAt: now })
        .where(and(eq(imports.id, id), inArray(imports.status, ["queued", "running"])))
        .returning(),
    );
    if (row) await emitImportUpdated(tx, row);
  });
}

/**
 * Runs pages of one import until it ends or `sliceMs` has passed. Each page is fetched, its
 * records written (each record in its own transaction, with its mapping), then the page's cursor
 * committed: a crash between them makes the next runner fetch that page again, and the mappings
 * make those records no-ops. Called by the job (imports.run) and by `desk import`.
 */
export async function runImportSteps(
  deps: Deps,
  id: string,
  options: { sliceMs: number; signal: AbortSignal; holder: LeaseHolder },
): Promise<StepOutcome> {
  const taken = await takeLease(deps, id, options.holder);
  if (taken === null) return { kind: "finished" };
  if ("busyUntil" in taken)
    return { kind: "busy", retryInMs: Math.max(1000, Date.parse(taken.busyUntil) - deps.clock.now().getTime()) };
  let row = taken;
  if (row.source === "csv") {
    await runCsvImport(deps, row);
    return { kind: "finished" };
  }
  if (!row.optionsSealed) {
    await finish(deps, id, "failed", {
      errors: [...row.errors, { record: "import", message: "The credentials are gone." }],
    });
    return { kind: "finished" };
  }
  const started = performance.now();
  // A page may wait out a long Retry-After: the lease is renewed meanwhile, not only between pages.
  const renew = setInterval(() => {
    const until = new Date(deps.clock.now().getTime() + LEASE_MS).toISOString();
    // Fire and forget: the timer cannot wait for it; a renewal that fails is logged, the next one retries.
    void transact(
      deps.db,
      async (tx) => await tx.update(imports).set({ leaseUntil: until }).where(eq(imports.id, id)),
    ).catch((error: unknown) => deps.logger.error({ err: error, import_id: id }, "could not renew an import's lease"));
  }, RENEW_MS);
  try {
    const source = sourceOf(row, JSON.parse(deps.secrets.open(row.optionsSealed)), deps);
    const state: ImportState = structuredClone(row.state);
    if (row.status === "queued") {
      state.totals = Object.fromEntries(
        Object.entries(await source.totals(options.signal)).filter((e): e is [string, number] => e[1] !== undefined),
      );
      state.phase = source.phases[0]!;
      state.fresh = Object.keys(state.cursors).length === 0;
      state.seen = {};
      const running = await commitProgress(deps, id, {
        status: "running",
        startedAt: deps.clock.now().toISOString(),
        phase: state.phase,
        done: 0,
        total: state.totals[state.phase] ?? null,
        state,
      });
      if (!running) return { kind: "finished" };
      row = running;
    }
    const scope: MappingScope = { workspaceId: row.workspaceId, source: row.source, account: row.account };
    const ctx = systemContext(row.workspaceId, `import:${id}`);
    const progress: Progress = { counts: { ...row.counts }, errors: [...row.errors], done: row.done };
    while (state.phase !== "done") {
      const phase = state.phase as Phase;
      const page = await source.page(phase, state.cursors[phase] ?? null, options.signal);
      for (const company of page.companies ?? []) await applyCompany(deps, ctx, scope, company, progress);
      for (const person of page.people ?? []) await applyPerson(deps, ctx, scope, person, progress);
      if (page.tickets?.length) await applyTickets(deps, ctx, scope, source, page.tickets, progress, options.signal);
      const read = (page.companies?.length ?? 0) + (page.people?.length ?? 0) + (page.tickets?.length ?? 0);
      progress.done += read;
      state.seen = { ...state.seen, [phase]: (state.seen?.[phase] ?? 0) + read };
      state.cursors[phase] = page.cursor;
      if (page.done) {
        const next = source.phases[source.phases.indexOf(phase) + 1];
        state.phase = next ?? "done";
        progress.done = 0;
      }
      const saved = await commitProgress(deps, id, {
        phase: state.phase,
        done: progress.done,
        total: state.totals[state.phase] ?? null,
        counts: progress.counts,
        errors: progress.errors,
        state,
      });
      if (!saved) return { kind: "finished" };
      if (state.phase !== "done" && performance.now() - started > options.sliceMs) return { kind: "more" };
    }
    await finish(deps, id, "succeeded", { errors: verify(state, progress, row.source), counts: progress.counts });
    return { kind: "finished" };
  } catch (error) {
    if (options.signal.aborted) throw error;
    if (!(error instanceof SourceError || error instanceof HttpStatusError)) throw error;
    const current = await transact(deps.db, async (tx) =>
      first(await tx.select().from(imports).where(eq(imports.id, id)).limit(1)),
    );
    await finish(deps, id, "failed", {
      errors: [...(current?.errors ?? []), { record: "import", message: error.message }].slice(-MAX_ERRORS),
    });
    return { kind: "finished" };
  } finally {
    clearInterval(renew);
  }
}

/** Ends a run that cannot go on (its job gave up after its retries): it must not stay `running`. */
export async function failImport(deps: Deps, id: string, message: string): Promise<void> {
  const current = await transact(deps.db, async (tx) =>
    first(await tx.select().from(imports).where(eq(imports.id, id)).limit(1)),
  );
  await finish(deps, id, "failed", {
    errors: [...(current?.errors ?? []), { record: "import", message }].slice(-MAX_ERRORS),
  });
}

/**
 * The report's check against the source's own totals: a phase whose records (imported, unchanged
 * or skipped) fall short of what the source counted says so among the errors. A re-run asks only
 * for changes, so it checks nothing.
 */
function verify(state: ImportState, progress: Progress, sourceName: string): ImportError[] {
  const errors = [...progress.errors];
  if (!state.fresh) return errors;
  for (const [phase, total] of Object.entries(state.totals)) {
    const seen = state.seen?.[phase] ?? 0;
    if (seen < total && errors.length < MAX_ERRORS)
      errors.push({ record: "verification", message: `${sourceName} counts ${total} ${phase}; ${seen} were read.` });
  }
  return errors;
}

async function applyCompany(
  deps: Deps,
  ctx: RequestContext,
  scope: MappingScope,
  company: SourceCompany,
  progress: Progress,
) {
  let problems: string[] = [];
  try {
    await transact(
      deps.db,
      async (tx) =>
        await withoutReactions(tx, async () => {
          const mapping = await mappingOf(tx, scope, "company", company.sourceId);
          if (unchanged(mapping, company.updatedAt)) return void progress.counts.skipped++;
          const input = { name: company.name, domain: company.domain, notes: company.notes };
          let deskId = mapping?.deskId;
          // Only a new company takes the source's time: a re-run never moves created_at.
          const created = { createdAt: sourceTimeOf(company.createdAt) };
          if (deskId) await updateCompany(ctx, deskId, input, deps);
          else {
            try {
              deskId = (await createCompany(ctx, input, deps, created)).id;
            } catch (error) {
              // A company here already has the domain: the source's record becomes a company without it.
              if (!(error instanceof DeskError && error.status === 409)) throw error;
              deskId = (await createCompany(ctx, { ...input, domain: null }, deps, created)).id;
            }
          }
          await saveMapping(tx, scope, {
            kind: "company",
            sourceId: company.sourceId,
            deskId,
            sourceUpdatedAt: company.updatedAt,
          });
          problems = await writeSourceFields(
            tx,
            ctx,
            deps,
            scope,
            { entity: "company", recordId: deskId },
            company.fields,
          );
          progress.counts.companies++;
        }),
    );
    addProblems(progress, `company ${company.sourceId}`, problems);
  } catch (error) {
    addError(progress, `company ${company.sourceId}`, messageOf(error));
  }
}

type PersonData = { agent: boolean; name: string; email: string | null; member: string | null; contact: string | null };

async function applyPerson(
  deps: Deps,
  ctx: RequestContext,
  scope: MappingScope,
  person: SourcePerson,
  progress: Progress,
) {
  let problems: string[] = [];
  try {
    await transact(
      deps.db,
      async (tx) =>
        await withoutReactions(tx, async () => {
          const mapping = await mappingOf(tx, scope, "person", person.sourceId);
          if (unchanged(mapping, person.updatedAt)) return void progress.counts.skipped++;
          const data: PersonData = {
            agent: person.agent,
            name: person.name,
            email: person.email,
            member: null,
            contact: null,
          };
          if (person.agent) {
            // Agents are never contacts: matched to a member by email, else only their name is kept.
            data.member = person.email ? await assignableMemberByEmail(tx, scope.workspaceId, person.email) : null;
            progress.counts.users++;
          } else {
            const company = person.companySourceId
              ? await mappingOf(tx, scope, "company", person.companySourceId)
              : undefined;
            const previous = (mapping?.data as PersonData | null)?.contact ?? null;
            const fields = { name: person.name, phone: person.phone, company_id: company?.deskId ?? null };
            let contactId = previous;
            if (contactId) {
              try {
                await updateContact(ctx, contactId, fields, deps);
              } catch (error) {
                if (!(error instanceof DeskError && error.status === 404)) throw error;
                contactId = null;
              }
            }
            if (!contactId) {
              const createdAt = sourceTimeOf(person.createdAt);
              contactId = person.email
                ? (
                    await findOrCreateContactByEmail(
                      tx,
                      ctx,
                      { email: person.email, name: person.name, createdAt },
                      deps.ports,
                    )
                  ).id
                : (await createContact(ctx, fields, deps, { createdAt })).id;
              if (person.email) await updateContact(ctx, contactId, fields, deps);
            }
            data.contact = contactId;
            problems = await writeSourceFields(
              tx,
              ctx,
              deps,
              scope,
              { entity: "contact", recordId: contactId },
              person.fields,
            );
            progress.counts.contacts++;
          }
          await saveMapping(tx, scope, {
            kind: "person",
            sourceId: person.sourceId,
            deskId: data.member ?? data.contact ?? "",
            sourceUpdatedAt: person.updatedAt,
            data,
          });
        }),
    );
    addProblems(progress, `user ${person.sourceId}`, problems);
  } catch (error) {
    addError(progress, `user ${person.sourceId}`, messageOf(error));
  }
}

/** A source's time as Desk stores times (ISO 8601 with milliseconds, so they sort as text); `fallback` when unreadable. */
function isoOf(value: string | null, fallback: string): string {
  const ms = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : fallback;
}

/** A source's creation time, or undefined (the record then takes now) when it has none or it is unreadable. */
const sourceTimeOf = (value: string | null | undefined): string | undefined =>
  value ? isoOf(value, "") || undefined : undefined;

type Fetched = { messages: SourceMessage[]; files: Map<string, string[]>; problems: string[] } | { error: string };

/** Fetches a ticket's messages and the files of those not imported yet (before any write). */
async function fetchTicket(
  deps: Deps,
  ctx: RequestContext,
  scope: MappingScope,
  source: ImportSource,
  ticket: SourceTicket,
  signal: AbortSignal,
): Promise<Fetched> {
  const files = new Map<string, string[]>();
  const problems: string[] = [];
  try {
    const messages: SourceMessage[] = [];
    for (const original of await source.messages(ticket, signal)) {
      if (await mappingOf(deps.db, scope, "message", original.sourceId)) continue;
      const ids: string[] = [];
      files.set(original.sourceId, ids);
      const inlined = await inlineImages(deps, ctx, source, original, signal);
      const message = inlined.message;
      messages.push(message);
      ids.push(...inlined.ids);
      problems.push(...inlined.problems);
      for (const attachment of message.attachments) {
        const bytes = await source.download(attachment, signal);
        const stored = await storeAttachmentAsync(
          ctx,
          { filename: attachment.filename, bytes, inline: attachment.inline, content_id: attachment.contentId ?? null },
          deps,
        );
        ids.push(stored.id);
      }
    }
    return { messages, files, problems };
  } catch (error) {
    await discardAttachments(deps, [...files.values()].flat());
    if (signal.aborted || error instanceof SourceError) throw error;
    return { error: messageOf(error) };
  }
}

async function applyTickets(
  deps: Deps,
  ctx: RequestContext,
  scope: MappingScope,
  source: ImportSource,
  tickets: SourceTicket[],
  progress: Progress,
  signal: AbortSignal,
): Promise<void> {
  const todo: SourceTicket[] = [];
  for (const ticket of tickets) {
    if (
      ticket.status === null ||
      unchanged(await mappingOf(deps.db, scope, "ticket", ticket.sourceId), ticket.updatedAt)
    )
      progress.counts.skipped++;
    else todo.push(ticket);
  }
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const ticket = todo[next++]!;
      const fetched = await fetchTicket(deps, ctx, scope, source, ticket, signal);
      if ("error" in fetched) addError(progress, `ticket ${ticket.sourceId}`, fetched.error);
      else await writeTicket(deps, ctx, scope, ticket, fetched, progress);
    }
  };
  await Promise.all(Array.from({ length: Math.min(TICKET_CONCURRENCY, todo.length) }, worker));
}

async function personOf(deps: Deps, scope: MappingScope, sourceId: string | null): Promise<PersonData | null> {
  if (!sourceId) return null;
  return ((await mappingOf(deps.db, scope, "person", sourceId))?.data as PersonData | null) ?? null;
}

async function writeTicket(
  deps: Deps,
  ctx: RequestContext,
  scope: MappingScope,
  ticket: SourceTicket,
  fetched: { messages: SourceMessage[]; files: Map<string, string[]>; problems: string[] },
  progress: Progress,
): Promise<void> {
  const counts = { messages: 0, attachments: 0 };
  const problems = [...fetched.problems];
  try {
    await transact(
      deps.db,
      async (tx) =>
        await withoutReactions(tx, async () => {
          const mapping = await mappingOf(tx, scope, "ticket", ticket.sourceId);
          const requester = await personOf(deps, scope, ticket.requesterSourceId);
          const now = deps.clock.now().toISOString();
          const createdAt = isoOf(ticket.createdAt, now);
          const input = {
            subject: ticket.subject,
            status: ticket.status ?? "open",
            priority: ticket.priority,
            contactId: requester?.contact ?? null,
            assigneeId: (await personOf(deps, scope, ticket.assigneeSourceId))?.member ?? null,
            tags: ticket.tags,
            createdAt,
            updatedAt: isoOf(ticket.updatedAt, createdAt),
            solvedAt: ticket.solvedAt ? isoOf(ticket.solvedAt, createdAt) : null,
          };
          const deskId = mapping
            ? ((await updateImportedTicket(ctx, mapping.deskId, input, deps, tx))?.id ?? null)
            : (await importTicket(ctx, input, deps, tx)).id;
          if (deskId)
            problems.push(
              ...(await writeSourceFields(tx, ctx, deps, scope, { entity: "ticket", recordId: deskId }, ticket.fields)),
            );
          if (deskId)
            for (const message of fetched.messages) {
              const written = await importMessage(
                ctx,
                deskId,
                await messageInput(deps, scope, message, fetched.files),
                deps,
                tx,
              );
              if (!written) continue;
              await rememberImportedMessageId(tx, scope.workspaceId, deskId, message, written);
              await saveMapping(tx, scope, {
                kind: "message",
                sourceId: message.sourceId,
                deskId: written.id,
                sourceUpdatedAt: null,
              });
              counts.messages++;
              counts.attachments += fetched.files.get(message.sourceId)?.length ?? 0;
            }
          await saveMapping(tx, scope, {
            kind: "ticket",
            sourceId: ticket.sourceId,
            deskId: deskId ?? mapping?.deskId ?? "",
            sourceUpdatedAt: ticket.updatedAt,
          });
        }),
    );
    progress.counts.tickets++;
    addProblems(progress, `ticket ${ticket.sourceId}`, problems);
    progress.counts.messages += counts.messages;
    progress.counts.attachments += counts.attachments;
  } catch (error) {
    await discardAttachments(deps, [...fetched.files.values()].flat());
    addError(progress, `ticket ${ticket.sourceId}`, messageOf(error));
  }
}

/**
 * Puts an imported mail's Message-ID in the map live mail threads by, so a customer's reply to
 * imported history joins its ticket. The map keeps the first ticket an id was recorded for, so a
 * re-run (or live mail met first) leaves it as it is.
 */
async function rememberImportedMessageId(
  tx: Tx,
  workspaceId: string,
  ticketId: string,
  message: SourceMessage,
  written: { id: string; direction: "inbound" | "outbound"; createdAt: string },
): Promise<void> {
  if (!message.messageId) return;
  await rememberMessageId(tx, {
    workspaceId,
    messageId: message.messageId,
    ticketId,
    deskMessageId: written.id,
    direction: written.direction,
    createdAt: written.createdAt,
  });
}

async function messageInput(
  deps: Deps,
  scope: MappingScope,
  message: SourceMessage,
  files: Map<string, string[]>,
): Promise<ImportedMessageInput> {
  const author = await personOf(deps, scope, message.authorSourceId);
  const common = {
    kind: message.public ? ("reply" as const) : ("note" as const),
    fromName: author?.name || (author ? "" : "Deleted user"),
    fromEmail: author?.email ?? "",
    bodyHtml: message.html,
    createdAt: isoOf(message.createdAt, deps.clock.now().toISOString()),
    attachmentIds: files.get(message.sourceId) ?? [],
  };
  if (author?.agent || (!author && !message.public))
    return {
      ...common,
      direction: "outbound",
      author: author?.member ? { type: "user", userId: author.member } : { type: "system" },
    };
  return {
    ...common,
    direction: message.public ? "inbound" : "outbound",
    author: author?.contact ? { type: "contact", contactId: author.contact } : { type: "system" },
  };
}
