import { useState } from "react";
import { canWrite, useRole } from "../lib/api/session";
import type { KbArticle } from "../lib/api/types";
import { t } from "../lib/i18n/i18n";
import { useWorkspace } from "../lib/resources/workspace";
import { Link } from "../lib/router/Link";
import { navigate } from "../lib/router/router";
import { Modal, timeAgo } from "../lib/ui/bits";
import { Field, FormError } from "../lib/ui/form";
import { ErrorBox, Loading } from "../lib/ui/states";
import { ArticleLanguages } from "./ArticleLanguages";
import { useArticle, useArticlePreview, useCollections, useKbWrites } from "./kb.queries";
import { helpCenterUrl } from "./KnowledgeBase";
import { RichTextEditor } from "./RichTextEditor";

export function ArticleEditor({ id }: { id: string }) {
  const article = useArticle(id);
  if (article.isPending) return <Loading />;
  if (article.isError) return <ErrorBox error={article.error} retry={() => article.refetch()} />;
  // One form per article: its fields start from the stored version and stay the editor's until saved.
  return <ArticleForm key={article.data.id} article={article.data} />;
}

function ArticleForm({ article }: { article: KbArticle }) {
  const role = useRole();
  const writer = canWrite(role);
  const collections = useCollections();
  const workspace = useWorkspace();
  const writes = useKbWrites();
  const [title, setTitle] = useState(article.title);
  const [html, setHtml] = useState(article.body_html);
  const [collectionId, setCollectionId] = useState(article.collection_id);
  const [dirty, setDirty] = useState(false);
  const preview = useArticlePreview();
  const [previewHtml, setPreviewHtml] = useState<string | null>(null);
  const save = writes.updateArticle;
  const published = article.status === "published";
  const enabled = workspace.data?.settings?.help_center_enabled === true;
  const publicUrl = workspace.data ? `${helpCenterUrl(workspace.data.slug)}/articles/${article.slug}` : null;

  const submit = (status?: "draft" | "published") =>
    save.mutate(
      { id: article.id, title, body_html: html, collection_id: collectionId, ...(status ? { status } : {}) },
      {
        onSuccess: (saved) => {
          setDirty(false);
          setHtml(saved.body_html);
        },
      },
    );
  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setDirty(true);
    };

  return (
    <section className="detail-page">
      <header className="page-head">
        <Link to={`/kb?collection=${article.collection_id}`} className="muted">
          {t("kb.title")}
        </Link>
        <span className="muted">/</span>
        <h1>{article.title}</h1>
        <span className={`pill ${published ? "pill-active" : "pill-pending"}`} data-testid="article-status">
          {published ? t("kb.statePublished") : t("kb.stateDraft")}
        </span>
        <span className="grow" />
        {published && enabled && publicUrl && (
          <a href={publicUrl} target="_blank" rel="noreferrer">
            {t("kb.viewOnHelpCenter")}
          </a>
        )}
      </header>
      <form
        className="stack kb-editor"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        noValidate
      >
        <div className="row2">
          <Field label={t("kb.titleLabel")} name="title" error={save.error}>
            <input value={title} onChange={(e) => edit(setTitle)(e.target.value)} disabled={!writer} />
          </Field>
          <Field label={t("kb.collectionLabel")} name="collection_id" error={save.error}>
            <select value={collectionId} onChange={(e) => edit(setCollectionId)(e.target.value)} disabled={!writer}>
              {(collections.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="field">
          <span className="field-label" id="article-body-label">
            {t("kb.bodyLabel")}
          </span>
          <RichTextEditor html={html} onChange={edit(setHtml)} label={t("kb.articleBodyLabel")} disabled={!writer} />
        </div>
        <FormError error={save.error} fields={["title", "collection_id"]} />
        <FormError error={preview.error} />
        <p className="muted small">
          {published ? t("kb.publishedAgo", { ago: timeAgo(article.published_at) }) : t("kb.draftNotOnHelpCenter")} ·{" "}
          {t("kb.updatedAgo", { ago: timeAgo(article.updated_at) })} · {t("kb.viewCount", { count: article.views })}
          {published && !enabled && ` · ${t("kb.publishedButOff")}`}
        </p>
        {writer && (
          <div className="actions">
            <button type="submit" className="btn" disabled={save.isPending}>
              {dirty ? (published ? t("kb.saveAndUpdate") : t("kb.saveDraft")) : t("kb.saved")}
            </button>
            {published ? (
              <button type="button" className="btn" disabled={save.isPending} onClick={() => submit("draft")}>
                {t("kb.unpublish")}
              </button>
            ) : (
              <button
                type="button"
                className="btn btn-primary"
                disabled={save.isPending}
                onClick={() => submit("published")}
              >
                {t("kb.publish")}
              </button>
            )}
            <button
              type="button"
              className="btn"
              disabled={preview.isPending}
              onClick={() =>
                preview.mutate(
                  { title: title.trim() || article.title, body_html: html, collection_id: collectionId },
                  { onSuccess: (answer) => setPreviewHtml(answer.html) },
                )
              }
            >
              {t("kb.preview")}
            </button>
            <span className="grow" />
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => {
                if (window.confirm(t("kb.confirmDeleteArticle", { title: article.title })))
                  writes.deleteArticle.mutate(article.id, {
                    onSuccess: () => navigate(`/kb?collection=${article.collection_id}`),
                  });
              }}
            >
              {t("kb.delete")}
            </button>
          </div>
        )}
      </form>
      <ArticleLanguages article={article} writer={writer} />
      {previewHtml !== null && (
        <Modal title={t("kb.previewTitle")} onClose={() => setPreviewHtml(null)} wide>
          <p className="muted small">
            {[dirty ? t("kb.previewUnsaved") : "", enabled ? "" : t("kb.previewOff")].filter(Boolean).join(" ")}
          </p>
          {/* The page the help center would serve, unscripted: sanitized by the server, no script allowed in the frame. */}
          <iframe
            className="kb-preview"
            title={t("kb.previewFrame")}
            sandbox="allow-same-origin"
            srcDoc={previewHtml}
          />
        </Modal>
      )}
    </section>
  );
}
