import { first } from "../db/store";
import { and, desc, eq, lt } from "drizzle-orm";
import { systemContext } from "../auth/context";
import type { VisitorResolver, VisitorSession } from "../auth/visitors";
import { visitorTokenOf } from "../auth/visitors";
import {
  createVisitorContact,
  emailTaken,
  fillVisitorContact,
  findContact,
  liveContactByExternalId,
  setContactLocaleIfUnset,
  type ContactRow,
} from "../contacts/contacts.public";
import type { Db, Queryable, Tx } from "../db/database";
import { helpCenterUrlOf } from "../help-center/help-center.public";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { messagesOf, t } from "../i18n/i18n";
import { matchLocale, negotiateLocale, SHIPPED_LOCALES, workspaceLocales } from "../i18n/locales";
import { hmacSha256Hex, safeEqual, sha256Hex } from "../lib/crypto";
import type { Clock } from "../lib/clock";
import { DeskError, forbidden, invalidAt, notFound } from "../lib/errors";
import { newId, randomToken } from "../lib/ids";
import { copyContactPictureFromUrl } from "../pictures/pictures.public";
import { WIDGET_PATH } from "../realtime/gateway";
import { widgetWorkspaceOf, workspaceOfWidgetKey, type WidgetWorkspace } from "../workspaces/workspaces.public";
import {
  DEFAULT_BRAND_COLOR,
  DEFAULT_GREETING,
  originAllowed,
  widgetSettingsOf,
  type WidgetSettings,
} from "./widget.settings";
import { widgetStatements } from "./widget.statements";
import { visitorSessions } from "./widget.table";

/** A visitor session lives this long after its last use (each resume and request moves it). */
export const VISITOR_SESSION_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;

/** The workspace and settings behind a public widget key; 404 for an unknown key or a disabled widget. */
export async function widgetOfKey(
  deps: Pick<Deps, "db">,
  key: string,
): Promise<{ workspace: WidgetWorkspace; settings: WidgetSettings }> {
  const workspace = await workspaceOfWidgetKey(deps.db, key);
  const settings = workspace ? await widgetSettingsOf(deps.db, workspace.id) : null;
  if (!workspace || !settings?.enabled) throw notFound("Widget");
  return { workspace, settings };
}

/**
 * `wanted`: the page's language (the tag's `data-locale`, else the browser's); the widget gets only
 * that language's messages, the workspace's language when Desk does not ship the one wanted.
 */
export function presentWidgetConfig(
  workspace: WidgetWorkspace,
  settings: WidgetSettings,
  deps: Pick<Deps, "config">,
  wanted?: string,
) {
  const brand = workspace.settings.brand_color;
  const locale = negotiateLocale(wanted ? [wanted] : [], SHIPPED_LOCALES, workspaceLocales(workspace.settings).locale);
  return {
    workspace_name: workspace.name,
    brand_color: typeof brand === "string" && brand ? brand : DEFAULT_BRAND_COLOR,
    // The default greeting speaks the visitor's language; one the workspace wrote is shown as written.
    greeting: settings.greeting === DEFAULT_GREETING ? t(locale, "widget.default_greeting") : settings.greeting,
    locale,
    messages: messagesOf(locale, "widget"),
    help_center_url: helpCenterUrlOf(deps.config.baseUrl, workspace),
    require_email: settings.requireEmail,
    avatar_url: workspace.images.widget_avatar ?? workspace.avatar_url ?? null,
    launcher_url: workspace.images.widget_launcher ?? null,
  };
}

/** 403 when a page of a site the workspace does not list asks (SPEC: allowed_origins on the session route). */
export function assertOrigin(settings: WidgetSettings, origin: string | null): void {
  if (!originAllowed(settings, origin))
    throw forbidden("This site may not run the workspace's chat widget (allowed_origins).");
}

/** `user_hash` must be the hex HMAC-SHA256 of `user_id` keyed with the widget secret, compared in constant time. */
export function verifiedUserId(
  workspace: WidgetWorkspace,
  input: { user_id?: string; user_hash?: string },
  deps: Pick<Deps, "secrets">,
): string | null {
  if (input.user_id === undefined && input.user_hash === undefined) return null;
  if (input.user_id === undefined) throw invalidAt("body.user_id", "user_hash needs the user_id it signs.");
  if (input.user_hash === undefined) throw invalidAt("body.user_hash", "user_id needs its user_hash.");
  const secret = workspace.widgetSecretSealed ? deps.secrets.open(workspace.widgetSecretSealed) : null;
  const expected = secret ? hmacSha256Hex(secret, input.user_id) : "";
  if (!secret || !safeEqual(expected, input.user_hash.toLowerCase()))
    throw new DeskError(
      401,
      "identity_unverified",
      "user_hash does not match user_id for this workspace's widget secret.",
    );
  return input.user_id;
}

type SessionInput = {
  key: string;
  visitor_token?: string;
  email?: string;
  name?: string;
  user_id?: string;
  user_hash?: string;
  avatar_url?: string;
  page_url?: string;
  time_zone?: string;
  locale?: string;
};

/** A user agent longer than this is cut: it is only summarised for the customer card. */
const USER_AGENT_CHARS = 300;
const HOST_CHARS = 100;

/** The host of an http(s) address, or null; only the name, never the path or the query. */
export function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const { protocol, hostname } = new URL(url);
    return protocol === "http:" || protocol === "https:" ? hostname.slice(0, HOST_CHARS) || null : null;
  } catch {
    return null;
  }
}

/** The name an anonymous visitor gets until they give one: agents otherwise see a blank or "?". */
export const visitorPlaceholderName = (host: string | null) => (host ? `Visitor from ${host}` : "");

/** "Firefox 133 on Windows" from a user agent, or null when it names no browser this knows. */
export function browserOf(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browsers: Array<[string, RegExp]> = [
    ["Edge", /Edg(?:e|A|iOS)?\/(\d+)/],
    ["Opera", /OPR\/(\d+)/],
    ["Samsung Internet", /SamsungBrowser\/(\d+)/],
    ["Firefox", /(?:Firefox|FxiOS)\/(\d+)/],
    ["Chrome", /(?:Chrome|CriOS)\/(\d+)/],
    ["Safari", /Version\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//],
  ];
  const systems: Array<[string, RegExp]> = [
    ["Android", /Android/],
    ["iOS", /iPhone|iPad|iPod/],
    ["Windows", /Windows/],
    ["macOS", /Mac OS X|Macintosh/],
    ["ChromeOS", /CrOS/],
    ["Linux", /Linux/],
  ];
  const browser = browsers.find(([, pattern]) => pattern.test(userAgent));
  if (!browser) return null;
  const version = browser[1].exec(userAgent)?.[1];
  const system = systems.find(([, pattern]) => pattern.test(userAgent))?.[0];
  return `${browser[0]}${version ? ` ${version}` : ""}${system ? ` on ${system}` : ""}`;
}

/**
 * What a visit tells of its contact. The language the widget speaks to them becomes theirs while
 * they have none: only a shipped one (the widget speaks no other), never over an agent's choice.
 * The picture the customer's site gives (verified visitors only) is copied as their `widget` one.
 */
async function learnFromVisit(tx: Tx, deps: Deps, workspaceId: string, contactId: string, input: SessionInput) {
  const spoken = input.locale ? matchLocale(input.locale) : null;
  await setContactLocaleIfUnset(tx, workspaceId, contactId, spoken, deps.clock.now().toISOString(), deps.ports);
  if (input.avatar_url === undefined) return;
  await copyContactPictureFromUrl(tx, deps, {
    workspaceId,
    contactId,
    url: input.avatar_url,
    field: "body.avatar_url",
  });
}

/**
 * Starts or resumes a visitor session (POST /v1/widget/session). A visitor token of a live session
 * of this workspace resumes it (same token, same contact), unless a verified identity names another
 * contact; anything else starts a new session. Verified: the contact with that external_id, created
 * if needed. Unverified: a contact of the visitor's own, never an existing one.
 */
export async function startVisitorSession(
  input: SessionInput,
  origin: string | null,
  deps: Deps,
  userAgent: string | null = null,
): Promise<{ token: string; contact: ContactRow; claimedEmail: string | null; workspaceId: string }> {
  const { workspace, settings } = await widgetOfKey(deps, input.key);
  assertOrigin(settings, origin);
  const externalId = verifiedUserId(workspace, input, deps);
  // A picture is the customer site's word about its user: only a verified identity may give one.
  if (input.avatar_url !== undefined && externalId === null)
    throw invalidAt("body.avatar_url", "avatar_url is taken only with a verified identity (user_id and user_hash).");
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const expiresAt = new Date(now.getTime() + VISITOR_SESSION_DAYS * DAY_MS).toISOString();
  const email = input.email ? input.email : null;
  if (email !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw invalidAt("body.email", "not an email address");
  const name = input.name ?? "";
  // What the widget reports about the visit, kept as the visitor sent it (capped) and shown as text.
  const visit = {
    pageUrl: input.page_url ?? null,
    userAgent: userAgent ? userAgent.slice(0, USER_AGENT_CHARS) : null,
    timeZone: input.time_zone ?? null,
  };
  const placeholder = visitorPlaceholderName(hostOf(input.page_url) ?? hostOf(origin));
  const ctx = systemContext(workspace.id);
  const presented = input.visitor_token ? visitorTokenOf(`Visitor ${input.visitor_token}`) : null;
  return await transact(deps.db, async (tx) => {
    const resumed = presented ? await widgetStatements(deps.db).liveSessionByHash(sha256Hex(presented), nowIso) : null;
    const current = resumed && resumed.workspace_id === workspace.id ? resumed : null;
    const currentContact = current ? await findContact(tx, workspace.id, current.contact_id) : undefined;
    if (current && currentContact && (externalId === null || currentContact.externalId === externalId)) {
      // A name the visitor gives replaces the placeholder this widget chose for them.
      const stillPlaceholder = name.trim() !== "" && currentContact.name.startsWith("Visitor from ");
      const contact = await fillVisitorContact(
        tx,
        ctx,
        stillPlaceholder ? { ...currentContact, name: "" } : currentContact,
        { email, name },
        nowIso,
        deps.ports,
      );
      const claimedEmail = contact.email ? null : (email ?? current.claimed_email);
      if (settings.requireEmail && !contact.email && !claimedEmail)
        throw invalidAt("body.email", "This widget asks for an email address before a chat starts.");
      await tx
        .update(visitorSessions)
        .set({ lastSeenAt: nowIso, expiresAt, claimedEmail, ...visit, ...(externalId ? { verified: true } : {}) })
        .where(eq(visitorSessions.id, current.id));
      await learnFromVisit(tx, deps, workspace.id, contact.id, input);
      return { token: presented!, contact, claimedEmail, workspaceId: workspace.id };
    }
    let contact: ContactRow;
    let claimedEmail: string | null = null;
    const known = externalId ? await liveContactByExternalId(tx, workspace.id, externalId) : undefined;
    if (known) contact = await fillVisitorContact(tx, ctx, known, { email, name }, nowIso, deps.ports);
    else {
      const free = email !== null && !(await emailTaken(tx, workspace.id, email, null));
      // Nobody to call them by: no name, no email of their own.
      const anonymous = !name.trim() && !free;
      contact = await createVisitorContact(
        tx,
        ctx,
        { email: free ? email : null, name: anonymous ? placeholder : name, externalId },
        nowIso,
        deps.ports,
      );
    }
    if (!contact.email && email) claimedEmail = email.toLowerCase();
    if (settings.requireEmail && !contact.email && !claimedEmail)
      throw invalidAt("body.email", "This widget asks for an email address before a chat starts.");
    const token = `desk_vis_${randomToken(32)}`;
    await tx.insert(visitorSessions).values({
      id: newId(),
      workspaceId: workspace.id,
      contactId: contact.id,
      tokenHash: sha256Hex(token),
      verified: externalId !== null,
      claimedEmail,
      ...visit,
      createdAt: nowIso,
      lastSeenAt: nowIso,
      expiresAt,
    });
    await learnFromVisit(tx, deps, workspace.id, contact.id, input);
    return { token, contact, claimedEmail, workspaceId: workspace.id };
  });
}

export async function sessionAnswer(
  started: Awaited<ReturnType<typeof startVisitorSession>>,
  deps: Pick<Deps, "tokens" | "config">,
) {
  const wsToken = await deps.tokens.sign("widget_ws", { wid: started.workspaceId, cid: started.contact.id });
  const base = deps.config.baseUrl.replace(/^http/, "ws");
  return {
    visitor_token: started.token,
    contact: {
      id: started.contact.id,
      email: started.contact.email ?? started.claimedEmail,
      name: started.contact.name,
      avatar_url: started.contact.avatarUrl ?? null,
    },
    ws_token: wsToken,
    gateway_url: `${base}${WIDGET_PATH}?token=${encodeURIComponent(wsToken)}`,
  };
}

/** A fresh gateway token for a visitor already holding a session (the widget reconnecting after 5 minutes). */
export async function gatewayAnswer(workspaceId: string, contactId: string, deps: Pick<Deps, "tokens" | "config">) {
  const wsToken = await deps.tokens.sign("widget_ws", { wid: workspaceId, cid: contactId });
  const base = deps.config.baseUrl.replace(/^http/, "ws");
  return { ws_token: wsToken, gateway_url: `${base}${WIDGET_PATH}?token=${encodeURIComponent(wsToken)}` };
}

/**
 * The guard's visitor lookup: a live session (not expired, contact not deleted, workspace live and
 * widget enabled) by the token's hash. One prepared statement per request.
 */
export function visitorResolver(db: Db, clock: Clock): VisitorResolver {
  return {
    async session(token: string): Promise<VisitorSession | null> {
      const row = await widgetStatements(db).liveSessionByHash(sha256Hex(token), clock.now().toISOString());
      if (!row || !(await findContact(db, row.workspace_id, row.contact_id))) return null;
      if (!(await widgetWorkspaceOf(db, row.workspace_id)) || !(await widgetSettingsOf(db, row.workspace_id)).enabled)
        return null;
      return { sessionId: row.id, workspaceId: row.workspace_id, contactId: row.contact_id };
    },
  };
}

/** Moves a session's expiry on use, at most once an hour so that reads stay reads. */
export async function touchVisitorSession(deps: Pick<Deps, "db" | "clock">, sessionId: string): Promise<void> {
  const now = deps.clock.now();
  const hourAgo = new Date(now.getTime() - 3600 * 1000).toISOString();
  await transact(
    deps.db,
    async (tx) =>
      await tx
        .update(visitorSessions)
        .set({
          lastSeenAt: now.toISOString(),
          expiresAt: new Date(now.getTime() + VISITOR_SESSION_DAYS * DAY_MS).toISOString(),
        })
        .where(and(eq(visitorSessions.id, sessionId), lt(visitorSessions.lastSeenAt, hourAgo))),
  );
}

/**
 * What the widget last reported about a contact's visit (their newest session), for the customer
 * card; 404 when the contact never chatted, or is another workspace's.
 */
export async function latestVisitOf(db: Queryable, workspaceId: string, contactId: string) {
  const row = first(
    await db
      .select({
        pageUrl: visitorSessions.pageUrl,
        userAgent: visitorSessions.userAgent,
        timeZone: visitorSessions.timeZone,
        lastSeenAt: visitorSessions.lastSeenAt,
      })
      .from(visitorSessions)
      .where(and(eq(visitorSessions.workspaceId, workspaceId), eq(visitorSessions.contactId, contactId)))
      .orderBy(desc(visitorSessions.lastSeenAt))
      .limit(1),
  );
  if (!row) throw notFound("Visitor");
  return {
    page_url: row.pageUrl,
    page_host: hostOf(row.pageUrl),
    browser: browserOf(row.userAgent),
    time_zone: row.timeZone,
    last_seen_at: row.lastSeenAt,
  };
}

/**
 * The workspace's widget key when its widget is installed for pages of `origin`: on, allowed there,
 * and it has had visitors (a widget nobody has seen is not installed anywhere yet). Else null.
 */
export async function widgetKeyOnSite(db: Queryable, workspaceId: string, origin: string): Promise<string | null> {
  const workspace = await widgetWorkspaceOf(db, workspaceId);
  const settings = workspace ? await widgetSettingsOf(db, workspaceId) : null;
  if (!workspace || !settings?.enabled || !originAllowed(settings, origin)) return null;
  return (await widgetHasVisitors(db, workspaceId)) ? workspace.widget_key : null;
}

/** Whether the widget has had a visitor on some site (the onboarding step "install the widget"). */
export async function widgetHasVisitors(db: Queryable, workspaceId: string): Promise<boolean> {
  return (
    first(
      await db
        .select({ id: visitorSessions.id })
        .from(visitorSessions)
        .where(eq(visitorSessions.workspaceId, workspaceId))
        .limit(1),
    ) !== undefined
  );
}
