import { first } from "../db/store";
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import {
  companyCreated,
  companyUpdated,
  contactCreated,
  contactUpdated,
  findCompany,
  findContact,
  setCompanyAutoPicture,
  setContactAutoPicture,
} from "../contacts/contacts.public";
import type { Tx } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { defineConsumer } from "../events/consumers";
import { enqueue } from "../jobs/enqueue";
import { defineJob } from "../jobs/define";
import { setUserPicture } from "../members/members.public";
import { invalidAt, notFound } from "../lib/errors";
import type { RequestContext } from "../auth/context";
import { checkUrlSyntax, UnsafeUrlError } from "../lib/ssrf";
import { userAvatarUrl } from "../identity/identity.public";
import { findWorkspace } from "../workspaces/workspaces.public";
import { FetchFailed, guardedGet, iconLinks } from "./pictures.fetch";
import { type PictureFit, processPicture } from "./pictures.image";
import { storePicture } from "./pictures.store";
import { pictureLookups } from "./pictures.table";

const DAY_MS = 86_400_000;
/** A found picture is reused this long before it is looked up again. */
export const FOUND_TTL_MS = 7 * DAY_MS;
/** "Nothing there" (404, not a picture) is believed this long. */
export const MISSING_TTL_MS = 7 * DAY_MS;
/** A failure (timeout, refused, 5xx) waits 1 h, doubling per failure, at most 7 days. */
const FAILURE_BACKOFF_MS = 60 * 60_000;
/** Even an explicit refresh does not ask again within a minute of the last look. */
export const REFRESH_FLOOR_MS = 60_000;

const gravatarKey = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest("hex");

type Candidates = () => Promise<string[]>;

/**
 * Looks a picture up through the shared cache: a recent find is reused, a remembered miss or
 * failure is not asked again until its time, otherwise the candidates are tried in order and the
 * first real picture (checked and processed like an upload) is stored. Answers its URL or null.
 */
export async function lookUp(
  deps: Pick<Deps, "db" | "clock" | "config" | "logger" | "blobs">,
  key: string,
  candidates: Candidates,
  fit: PictureFit,
  force = false,
): Promise<string | null> {
  const now = deps.clock.now();
  const row = first(await deps.db.select().from(pictureLookups).where(eq(pictureLookups.key, key)).limit(1));
  if (row) {
    const age = now.getTime() - new Date(row.checkedAt).getTime();
    const fresh = row.status === "found" ? age < FOUND_TTL_MS : new Date(row.retryAfter) > now;
    if ((!force && fresh) || age < REFRESH_FLOOR_MS) return row.status === "found" ? row.imageUrl : null;
  }
  let missing = true;
  let found: string | null = null;
  for (const url of await candidates().catch(() => [])) {
    try {
      const { body } = await guardedGet(deps, url);
      found = await storePicture(deps, await processPicture(body, fit, deps.config.dataDir));
      break;
    } catch (error) {
      // Not a picture we take (SVG, ICO, too large) counts as missing; anything else as a failure.
      if (error instanceof FetchFailed && !error.missing) missing = false;
      deps.logger.debug({ key, url, err: error }, "picture lookup candidate failed");
    }
  }
  const failures = found ? 0 : (row?.failures ?? 0) + 1;
  const wait = found
    ? FOUND_TTL_MS
    : missing
      ? MISSING_TTL_MS
      : Math.min(FAILURE_BACKOFF_MS * 2 ** (failures - 1), MISSING_TTL_MS);
  const values = {
    status: found ? ("found" as const) : missing ? ("missing" as const) : ("failed" as const),
    imageUrl: found,
    failures,
    checkedAt: now.toISOString(),
    retryAfter: new Date(now.getTime() + wait).toISOString(),
    updatedAt: now.toISOString(),
  };
  await deps.db
    .insert(pictureLookups)
    .values({ key, ...values })
    .onConflictDoUpdate({ target: pictureLookups.key, set: values });
  return found;
}

/** Where a company's icons may be: the icons its home page names, then the usual file names. */
function domainCandidates(deps: Pick<Deps, "config">, domain: string): Candidates {
  const origin = deps.config.pictureSources.domainIcons.replace("{domain}", domain).replace(/\/$/, "");
  return async () => {
    const named = await guardedGet(deps, `${origin}/`, { maxBytes: 512 * 1024, accept: "text/html" })
      .then((page) => iconLinks(new TextDecoder().decode(page.body), page.url))
      .catch(() => []);
    return [...new Set([...named.slice(0, 3), `${origin}/apple-touch-icon.png`, `${origin}/favicon.ico`])];
  };
}

const settingsOf = async (deps: Pick<Deps, "db">, workspaceId: string) =>
  ((await findWorkspace(deps.db, workspaceId))?.settings ?? {}) as { gravatar?: unknown; domain_logos?: unknown };

const Target = z.object({ workspace_id: z.string(), id: z.string(), force: z.boolean().default(false) });

/** A contact's Gravatar, when the workspace's `gravatar` setting is on and no picture was uploaded. */
export const contactPictureJob = defineJob({
  name: "pictures.contact-lookup",
  schema: Target,
  async handler({ workspace_id, id, force }, { deps }: { deps: Deps }) {
    const contact = await findContact(deps.db, workspace_id, id);
    // An uploaded picture, or the one the customer's own site gave its chat visitor, comes first.
    if (!contact?.email || contact.avatarSource === "upload" || contact.avatarSource === "widget") return;
    if ((await settingsOf(deps, workspace_id)).gravatar !== true) return;
    const hash = gravatarKey(contact.email);
    const url = await lookUp(
      deps,
      `gravatar:${hash}`,
      async () => [`${deps.config.pictureSources.gravatar}/${hash}?s=256&d=404`],
      "cover",
      force,
    );
    if (url)
      await transact(deps.db, async (tx) => {
        // Read again in the change: the site's picture may have come while Gravatar was asked (the
        // jobs run side by side), and it comes first.
        if ((await findContact(tx, workspace_id, id))?.avatarSource === "widget") return;
        await setContactAutoPicture(tx, workspace_id, id, url, "gravatar", deps.clock.now().toISOString(), deps.ports);
      });
  },
});

/** A company's logo from its domain's icons, when `domain_logos` is on (the default) and none was uploaded. */
export const companyPictureJob = defineJob({
  name: "pictures.company-lookup",
  schema: Target,
  async handler({ workspace_id, id, force }, { deps }: { deps: Deps }) {
    const company = await findCompany(deps.db, workspace_id, id);
    if (!company?.domain || company.avatarSource === "upload") return;
    if ((await settingsOf(deps, workspace_id)).domain_logos === false) return;
    const domain = company.domain.toLowerCase();
    const url = await lookUp(deps, `domain:${domain}`, domainCandidates(deps, domain), "contain", force);
    if (url)
      await transact(
        deps.db,
        async (tx) => await setCompanyAutoPicture(tx, workspace_id, id, url, deps.clock.now().toISOString()),
      );
  },
});

/**
 * Queues the automatic picture lookup of a contact (Gravatar) or a company (its domain's icons);
 * `force` looks again past the remembered result. One waiting lookup per record.
 */
async function askForLookup(
  tx: Tx,
  kind: "contact" | "company",
  workspaceId: string,
  id: string,
  force: boolean,
): Promise<void> {
  const job = kind === "contact" ? contactPictureJob : companyPictureJob;
  await enqueue(tx, job, { workspace_id: workspaceId, id, force }, { workspaceId, uniqueKey: `${kind}-picture:${id}` });
}

/** POST …/avatar/refresh: the record must be the caller's workspace's (404 otherwise, as a missing one). */
export async function refreshPicture(
  deps: Pick<Deps, "db">,
  ctx: RequestContext,
  kind: "contact" | "company",
  id: string,
) {
  await transact(deps.db, async (tx) => {
    const found =
      kind === "contact" ? await findContact(tx, ctx.workspaceId, id) : await findCompany(tx, ctx.workspaceId, id);
    if (!found) throw notFound(kind === "contact" ? "Contact" : "Company");
    await askForLookup(tx, kind, ctx.workspaceId, id, true);
  });
}

/** A new or changed contact with an email and no picture gets a lookup (the job checks the setting). */
export const lookUpContactPictures = defineConsumer({
  name: "pictures.contact-lookups",
  events: [contactCreated, contactUpdated],
  async handle(tx, event) {
    const { contact } = event.data;
    if (!contact.email || contact.avatar_url) return;
    await askForLookup(tx, "contact", event.workspace_id, contact.id, false);
  },
});

export const lookUpCompanyPictures = defineConsumer({
  name: "pictures.company-lookups",
  events: [companyCreated, companyUpdated],
  async handle(tx, event) {
    const { company } = event.data;
    if (!company.domain || company.avatar_url) return;
    await askForLookup(tx, "company", event.workspace_id, company.id, false);
  },
});

/**
 * The picture a verified chat visitor's site gives (`avatar_url` of POST /v1/widget/session), copied
 * through the shared lookup cache (a visitor seen again does not fetch it again) as source `widget`;
 * an uploaded picture stays.
 */
export const contactUrlPictureJob = defineJob({
  name: "pictures.contact-url",
  schema: z.object({ workspace_id: z.string(), id: z.string(), url: z.string() }),
  async handler({ workspace_id, id, url }, { deps }: { deps: Deps }) {
    if ((await findContact(deps.db, workspace_id, id))?.avatarSource === "upload") return;
    const key = `url:${createHash("sha256").update(url).digest("hex")}`;
    const stored = await lookUp(deps, key, async () => [url], "cover");
    if (stored)
      await transact(
        deps.db,
        async (tx) =>
          await setContactAutoPicture(
            tx,
            workspace_id,
            id,
            stored,
            "widget",
            deps.clock.now().toISOString(),
            deps.ports,
          ),
      );
  },
});

/**
 * Asks for a contact's picture from a URL, in the caller's transaction; a URL the SSRF guard would
 * refuse answers 422 at `field`.
 */
export async function copyContactPictureFromUrl(
  tx: Tx,
  deps: Pick<Deps, "config">,
  target: { workspaceId: string; contactId: string; url: string; field: string },
): Promise<void> {
  try {
    checkUrlSyntax(target.url, deps.config.allowedPrivateHosts);
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw invalidAt(target.field, error.message);
    throw error;
  }
  await enqueue(
    tx,
    contactUrlPictureJob,
    { workspace_id: target.workspaceId, id: target.contactId, url: target.url },
    {
      workspaceId: target.workspaceId,
      // Per address: a visitor whose site changed their picture while the old one waits gets both asked.
      uniqueKey: `contact-picture-url:${target.contactId}:${createHash("sha256").update(target.url).digest("hex").slice(0, 16)}`,
    },
  );
}

/** Copies a picture from a URL the person gave (PATCH /v1/me { avatar_url }); it counts as their upload. */
export const userPictureJob = defineJob({
  name: "pictures.user-url",
  schema: z.object({ user_id: z.string(), url: z.string(), source: z.enum(["upload", "oauth"]).default("upload") }),
  async handler({ user_id, url, source }, { deps, logger }: { deps: Deps; logger: Deps["logger"] }) {
    // A provider's picture never replaces one the person has.
    if (source === "oauth" && (await userAvatarUrl(deps.db, user_id))) return;
    let stored: string;
    try {
      const { body } = await guardedGet(deps, url);
      stored = await storePicture(deps, await processPicture(body, "cover", deps.config.dataDir));
    } catch (error) {
      // A bad URL or a non-picture will not improve with retries: logged, and the old picture stays.
      logger.warn({ err: error, user_id }, "copying a picture from a URL failed");
      return;
    }
    await transact(deps.db, async (tx) => {
      if (source === "oauth" && (await userAvatarUrl(tx, user_id))) return;
      await setUserPicture(deps, tx, user_id, stored, deps.clock.now().toISOString(), source);
    });
  },
});

export async function copyPictureFromUrl(deps: Deps, userId: string, url: string): Promise<void> {
  try {
    checkUrlSyntax(url, deps.config.allowedPrivateHosts);
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw invalidAt("body.avatar_url", error.message);
    throw error;
  }
  await transact(
    deps.db,
    async (tx) =>
      await enqueue(
        tx,
        userPictureJob,
        { user_id: userId, url, source: "upload" },
        { uniqueKey: `user-picture:${userId}:${url}` },
      ),
  );
}

/**
 * The picture a sign-in provider gives (the OpenID Connect `picture` claim), for a person without
 * one: copied like any other (source `oauth`); a URL the guard would refuse is ignored.
 */
export async function copyProviderPicture(
  deps: Pick<Deps, "db" | "config">,
  userId: string,
  url: string,
): Promise<void> {
  try {
    checkUrlSyntax(url, deps.config.allowedPrivateHosts);
  } catch {
    return;
  }
  await transact(
    deps.db,
    async (tx) =>
      await enqueue(
        tx,
        userPictureJob,
        { user_id: userId, url, source: "oauth" },
        { uniqueKey: `user-picture:${userId}:oauth` },
      ),
  );
}
