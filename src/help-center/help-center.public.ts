/** What other features may use of the help center: its public address (the widget config's `help_center_url`), its article search. */
import type { Queryable } from "../db/database";
import type { Deps } from "../deps";
import { searchPublishedArticleTexts } from "../kb/kb.public";
import { matchLocale } from "../i18n/locales";
import { definePort } from "../lib/ports";
import { findWorkspace } from "../workspaces/workspaces.public";
import type { ContactChannelsOf, ContactForm } from "./help-center.contact";
import { helpCenterAt, articleUrl, searchOf } from "./help-center.service";

export type { ContactChannelsOf } from "./help-center.contact";

/** Its pages' "Contact us": the chat widget and the default mailbox, features the help center may not import. */
export const contactChannels = definePort<ContactChannelsOf>("help-center.contactChannels");
/** The contact form at /help/{slug}/contact: the portal's, which the help center may not import. */
export const contactForm = definePort<(deps: Deps) => ContactForm>("help-center.contactForm");

/**
 * `{base_url}/help/{workspace_slug}` when the workspace's help center is on (`help_center_enabled`
 * true), else null: a link to a help center that answers 404 helps nobody.
 */
export function helpCenterUrlOf(
  baseUrl: string,
  workspace: { slug: string; settings: Record<string, unknown> | null },
) {
  return workspace.settings?.help_center_enabled === true
    ? `${baseUrl}/help/${encodeURIComponent(workspace.slug)}`
    : null;
}

/**
 * The help center's published articles matching `q` (at most `limit`), with their public address;
 * empty while the help center is off, since its links would answer 404. In `locale` (a BCP 47 tag,
 * matched among the help center's languages, else its own) where an article has a published translation.
 */
export async function searchHelpCenter(
  db: Queryable,
  baseUrl: string,
  workspace: { slug: string },
  q: string,
  limit: number,
  locale?: string,
): Promise<Array<{ title: string; excerpt: string; url: string }>> {
  const found = await helpCenterAt(db, baseUrl, workspace.slug);
  if (!found || !q.trim()) return [];
  const chosen = (locale && matchLocale(locale, found.locales)) || found.locale;
  const center = { ...found, locale: chosen, url: found.locales.length > 1 ? `${found.root}/${chosen}` : found.root };
  return (await searchOf(db, center, q))
    .slice(0, limit)
    .map((a) => ({ title: a.title, excerpt: a.excerpt, url: articleUrl(center, a.slug) }));
}

/** The workspace's published articles a query finds, with their text, linked on its help center when it is on. */
export async function publishedArticlesFor(
  deps: Pick<Deps, "db" | "config">,
  workspaceId: string,
  query: string,
  limit: number,
): Promise<Array<{ article_id: string; title: string; url: string; text: string }>> {
  const workspace = await findWorkspace(deps.db, workspaceId);
  if (!workspace) return [];
  // No link while the help center is off: it would answer 404.
  const center = helpCenterUrlOf(deps.config.baseUrl, workspace);
  return (await searchPublishedArticleTexts(deps.db, workspaceId, query, limit)).map((article) => ({
    article_id: article.id,
    title: article.title,
    url: center ? `${center}/articles/${encodeURIComponent(article.slug)}` : "",
    text: article.text,
  }));
}
