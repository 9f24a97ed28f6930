import { first } from "../db/store";
import { eq } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import type { Queryable } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { invalidAt, notFound } from "../lib/errors";
import { findMailbox } from "../mailboxes/mailboxes.public";
import { widgetWorkspaceOf } from "../workspaces/workspaces.public";
import type { SettingsPatchInput } from "./widget.schemas";
import { widgetSettings } from "./widget.table";

export const DEFAULT_GREETING = "Hi! How can we help?";
export const DEFAULT_BRAND_COLOR = "#2563eb";

export type WidgetSettings = {
  enabled: boolean;
  greeting: string;
  requireEmail: boolean;
  allowedOrigins: string[];
  replyMailboxId: string | null;
};

const DEFAULTS: WidgetSettings = {
  enabled: true,
  greeting: DEFAULT_GREETING,
  requireEmail: false,
  allowedOrigins: [],
  replyMailboxId: null,
};

/** The workspace's widget settings (the defaults until an admin saves some). */
export async function widgetSettingsOf(db: Queryable, workspaceId: string): Promise<WidgetSettings> {
  const row = first(await db.select().from(widgetSettings).where(eq(widgetSettings.workspaceId, workspaceId)).limit(1));
  return row
    ? {
        enabled: row.enabled,
        greeting: row.greeting,
        requireEmail: row.requireEmail,
        allowedOrigins: row.allowedOrigins,
        replyMailboxId: row.replyMailboxId,
      }
    : DEFAULTS;
}

/**
 * True when a page of `origin` may run the widget: no list means any site; an entry is an exact
 * origin or `scheme://*.domain` for its subdomains. A request without an Origin (a server, curl) is
 * not a page and is not judged here.
 */
export function originAllowed(settings: Pick<WidgetSettings, "allowedOrigins">, origin: string | null): boolean {
  if (origin === null || settings.allowedOrigins.length === 0) return true;
  const wanted = origin.toLowerCase();
  return settings.allowedOrigins.some((entry) => {
    if (!entry.includes("*.")) return entry === wanted;
    const [scheme, rest] = entry.split("://*.");
    if (!wanted.startsWith(`${scheme}://`)) return false;
    return wanted.slice(`${scheme}://`.length).endsWith(`.${rest}`);
  });
}

export function embedSnippet(baseUrl: string, widgetKey: string): string {
  return `<script src="${baseUrl}/widget.js" data-key="${widgetKey}" async></script>`;
}

export function presentWidgetSettings(settings: WidgetSettings, deps: Pick<Deps, "config">, widgetKey: string) {
  return {
    enabled: settings.enabled,
    greeting: settings.greeting,
    require_email: settings.requireEmail,
    allowed_origins: settings.allowedOrigins,
    reply_mailbox_id: settings.replyMailboxId,
    widget_key: widgetKey,
    snippet: embedSnippet(deps.config.baseUrl, widgetKey),
  };
}

async function widgetKeyOf(deps: Pick<Deps, "db">, workspaceId: string): Promise<string> {
  const workspace = await widgetWorkspaceOf(deps.db, workspaceId);
  if (!workspace) throw notFound("Workspace");
  return workspace.widget_key;
}

export async function getWidgetSettings(ctx: RequestContext, deps: Deps) {
  return presentWidgetSettings(
    await widgetSettingsOf(deps.db, ctx.workspaceId),
    deps,
    await widgetKeyOf(deps, ctx.workspaceId),
  );
}

/** Saves the members given (the rest keep their value); audit-logged when something changed. */
export async function updateWidgetSettings(ctx: RequestContext, patch: SettingsPatchInput, deps: Deps) {
  const widgetKey = await widgetKeyOf(deps, ctx.workspaceId);
  const saved = await transact(deps.db, async (tx) => {
    const current = await widgetSettingsOf(tx, ctx.workspaceId);
    const next: WidgetSettings = {
      enabled: patch.enabled ?? current.enabled,
      greeting: patch.greeting ?? current.greeting,
      requireEmail: patch.require_email ?? current.requireEmail,
      allowedOrigins: patch.allowed_origins ? [...new Set(patch.allowed_origins)] : current.allowedOrigins,
      replyMailboxId: patch.reply_mailbox_id !== undefined ? patch.reply_mailbox_id : current.replyMailboxId,
    };
    // Another workspace's mailbox is as unknown here as a missing one.
    if (patch.reply_mailbox_id && !(await findMailbox(tx, ctx.workspaceId, patch.reply_mailbox_id)))
      throw invalidAt("body.reply_mailbox_id", "Not a mailbox of this workspace.");
    if (JSON.stringify(next) === JSON.stringify(current)) return current;
    const values = { ...next, updatedAt: deps.clock.now().toISOString() };
    await tx
      .insert(widgetSettings)
      .values({ workspaceId: ctx.workspaceId, ...values })
      .onConflictDoUpdate({ target: widgetSettings.workspaceId, set: values });
    await recordAudit(tx, ctx, {
      action: "widget.settings_updated",
      entityType: "workspace",
      entityId: ctx.workspaceId,
      data: { changes: patch },
    });
    return next;
  });
  return presentWidgetSettings(saved, deps, widgetKey);
}
