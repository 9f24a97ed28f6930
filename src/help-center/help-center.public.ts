/** What other features may use of the help center: its public address (the widget config's `help_center_url`), its article search. */
import type { Queryable } from "../db/database";
import { helpCenterAt, articleUrl, searchOf } from "./help-center.service";

export type { ContactChannelsOf } from "./help-center.contact";

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
 * empty while the help center is off, since its links would answer 404.
 */
export function searchHelpCenter(
  db: Queryable,
  baseUrl: string,
  workspace: { slug: string },
  q: string,
  limit: number,
): Array<{ title: string; excerpt: string; url: string }> {
  const center = helpCenterAt(db, baseUrl, workspace.slug);
  if (!center || !q.trim()) return [];
  return searchOf(db, center, q)
    .slice(0, limit)
    .map((a) => ({ title: a.title, excerpt: a.excerpt, url: articleUrl(center, a.slug) }));
}
