import type { RequestContext } from "../auth/context";
import type { Deps } from "../deps";
import { publishedCollectionById } from "../kb/kb.public";
import { notFound } from "../lib/errors";
import { htmlToText, sanitizeHtmlBody } from "../lib/sanitize";
import { findWorkspace } from "../workspaces/workspaces.public";
import { articlePage } from "./help-center.render";
import { helpCenterOf } from "./help-center.service";
import { brandHex, stylesheetOf } from "./help-center.theme";

export type PreviewInput = { title: string; body_html: string; collection_id?: string | null };

/**
 * An article as its help center page would show it, from what the editor holds now (saved or not;
 * nothing is stored, no view is counted), whether the help center is on or not: the same page
 * template, the workspace's title, logo and brand colour, the body sanitized as saving would. The
 * stylesheet is the shared one themed by `?brand=`, so the page renders where the help center is off.
 */
export async function previewArticle(deps: Deps, ctx: RequestContext, input: PreviewInput): Promise<string> {
  const workspace = await findWorkspace(deps.db, ctx.workspaceId);
  if (!workspace) throw notFound("Workspace");
  const collection = input.collection_id
    ? await publishedCollectionById(deps.db, ctx.workspaceId, input.collection_id)
    : undefined;
  if (input.collection_id && !collection) throw notFound("Collection");
  const center = helpCenterOf(deps.config.baseUrl, workspace);
  const bodyHtml = sanitizeHtmlBody(input.body_html);
  const now = deps.clock.now().toISOString();
  const brand = brandHex(center.brandColor);
  const css = `${deps.config.baseUrl}/help/-/style.css?v=${stylesheetOf(brand).version}${brand ? `&brand=${encodeURIComponent(brand)}` : ""}`;
  return articlePage(center, css, {
    article: {
      id: "preview",
      collectionId: collection?.id ?? "",
      title: input.title,
      slug: "preview",
      bodyHtml,
      bodyText: htmlToText(bodyHtml),
      publishedAt: now,
      updatedAt: now,
      lang: center.locale,
    },
    languages: [center.locale],
    collection: collection
      ? { id: collection.id, name: collection.name, slug: collection.slug, updatedAt: collection.updatedAt }
      : null,
  });
}
