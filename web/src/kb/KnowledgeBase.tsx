import { type FormEvent, useState } from "react";
import { canWrite, useRole } from "../lib/api/session";
import type { KbCollection } from "../lib/api/types";
import { formatNumber, t } from "../lib/i18n/i18n";
import { useWorkspace } from "../lib/resources/workspace";
import { Link } from "../lib/router/Link";
import { navigate, useLocation } from "../lib/router/router";
import { timeAgo } from "../lib/ui/bits";
import { Field, FormError, formValues } from "../lib/ui/form";
import { Empty, ErrorBox, errorText, Loading } from "../lib/ui/states";
import { useArticles, useCollections, useKbWrites } from "./kb.queries";

/** The public address of the workspace's help center (served by this Desk). */
export const helpCenterUrl = (slug: string) => `${window.location.origin}/help/${encodeURIComponent(slug)}`;

/** Knowledge base: collections on the left, the chosen collection's articles (drafts included) on the right. */
export function KnowledgeBase() {
  const role = useRole();
  const writer = canWrite(role);
  const { search } = useLocation();
  const collections = useCollections();
  const workspace = useWorkspace();
  const writes = useKbWrites();
  const chosen = search.get("collection");
  const list = collections.data ?? [];
  const current = list.find((c) => c.id === chosen) ?? list[0] ?? null;
  const enabled = workspace.data?.settings?.help_center_enabled === true;

  const addCollection = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const v = formValues(form);
    writes.createCollection.mutate(
      { name: v.name, description: v.description || undefined },
      {
        onSuccess: (c) => {
          form.reset();
          navigate(`/kb?collection=${c.id}`, { replace: true });
        },
      },
    );
  };

  return (
    <section className="list-page">
      <header className="page-head">
        <h1>{t("kb.title")}</h1>
        <span className="grow" />
        {workspace.data &&
          (enabled ? (
            <a href={helpCenterUrl(workspace.data.slug)} target="_blank" rel="noreferrer">
              {t("kb.openHelpCenter")}
            </a>
          ) : (
            <span className="muted small">
              {t("kb.helpCenterOff")} <Link to="/settings/help-center">{t("kb.turnItOn")}</Link>
            </span>
          ))}
      </header>
      {collections.isPending ? (
        <Loading />
      ) : collections.isError ? (
        <ErrorBox error={collections.error} retry={() => collections.refetch()} />
      ) : (
        <div className="kb-grid">
          <nav className="kb-collections" aria-label={t("kb.collections")}>
            <h2>{t("kb.collections")}</h2>
            {list.length === 0 ? (
              <p className="muted small">{t("kb.noCollections")}</p>
            ) : (
              <ul>
                {list.map((c) => (
                  <li key={c.id}>
                    <a
                      href={`/kb?collection=${c.id}`}
                      aria-current={c.id === current?.id ? "page" : undefined}
                      className={`nav-item${c.id === current?.id ? " active" : ""}`}
                      onClick={(e) => {
                        e.preventDefault();
                        navigate(`/kb?collection=${c.id}`, { replace: true });
                      }}
                    >
                      {c.name}
                    </a>
                  </li>
                ))}
              </ul>
            )}
            {writer && (
              <form className="stack" onSubmit={addCollection} noValidate>
                <Field label={t("kb.newCollection")} name="name" error={writes.createCollection.error}>
                  <input name="name" placeholder={t("kb.newCollectionPlaceholder")} />
                </Field>
                <Field label={t("kb.description")} name="description" error={writes.createCollection.error}>
                  <input name="description" />
                </Field>
                <FormError error={writes.createCollection.error} fields={["name", "description"]} />
                <button type="submit" className="btn btn-small" disabled={writes.createCollection.isPending}>
                  {t("kb.addCollection")}
                </button>
              </form>
            )}
          </nav>
          {current ? (
            <CollectionArticles collection={current} writer={writer} />
          ) : (
            <Empty title={t("kb.emptyTitle")}>{t("kb.emptyBody")}</Empty>
          )}
        </div>
      )}
    </section>
  );
}

function CollectionArticles({ collection, writer }: { collection: KbCollection; writer: boolean }) {
  const articles = useArticles(collection.id);
  const writes = useKbWrites();
  const [title, setTitle] = useState("");
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    writes.createArticle.mutate(
      { collection_id: collection.id, title },
      { onSuccess: (a) => navigate(`/kb/articles/${a.id}`) },
    );
  };
  const rows = articles.data ?? [];
  const move = (index: number, by: -1 | 1) => {
    const ids = rows.map((a) => a.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved);
    writes.reorderArticles.mutate(ids);
  };
  return (
    <section className="kb-articles" aria-labelledby="kb-collection-title">
      <h2 id="kb-collection-title">{collection.name}</h2>
      {collection.description && <p className="muted">{collection.description}</p>}
      {writer && (
        <details className="kb-edit">
          <summary>{t("kb.editCollection")}</summary>
          <form
            key={`${collection.id}-${collection.updated_at}`}
            className="stack narrow"
            onSubmit={(e) => {
              e.preventDefault();
              const v = formValues(e.currentTarget);
              writes.updateCollection.mutate({ id: collection.id, name: v.name, description: v.description });
            }}
            noValidate
          >
            <Field label={t("kb.collectionName")} name="name" error={writes.updateCollection.error}>
              <input name="name" defaultValue={collection.name} />
            </Field>
            <Field label={t("kb.collectionDescription")} name="description" error={writes.updateCollection.error}>
              <input name="description" defaultValue={collection.description} />
            </Field>
            <FormError error={writes.updateCollection.error} fields={["name", "description"]} />
            <div className="actions">
              <button type="submit" className="btn btn-small" disabled={writes.updateCollection.isPending}>
                {t("kb.saveCollection")}
              </button>
            </div>
          </form>
        </details>
      )}
      {writer && (
        <form className="inline-form" onSubmit={add} noValidate>
          <Field label={t("kb.newArticleTitle")} name="title" error={writes.createArticle.error}>
            <input name="title" value={title} onChange={(e) => setTitle(e.target.value)} />
          </Field>
          <button type="submit" className="btn btn-primary btn-small" disabled={writes.createArticle.isPending}>
            {t("kb.newArticle")}
          </button>
        </form>
      )}
      {articles.isPending ? (
        <Loading />
      ) : articles.isError ? (
        <ErrorBox error={articles.error} retry={() => articles.refetch()} />
      ) : rows.length === 0 ? (
        <Empty title={t("kb.noArticles")}>
          {writer && (
            <button
              type="button"
              className="btn btn-small btn-ghost"
              onClick={() => writes.deleteCollection.mutate(collection.id, { onSuccess: () => navigate("/kb") })}
            >
              {t("kb.deleteCollection")}
            </button>
          )}
        </Empty>
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th>{t("kb.titleColumn")}</th>
                <th>{t("kb.statusColumn")}</th>
                <th className="num">{t("kb.viewsColumn")}</th>
                <th>{t("kb.updatedColumn")}</th>
                {writer && <th>{t("kb.orderColumn")}</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((a, index) => (
                <tr key={a.id}>
                  <td>
                    <Link to={`/kb/articles/${a.id}`}>{a.title}</Link>
                  </td>
                  <td>
                    <span className={`pill ${a.status === "published" ? "pill-active" : "pill-pending"}`}>
                      {a.status === "published" ? t("kb.statePublished") : t("kb.stateDraft")}
                    </span>
                  </td>
                  <td className="num">{formatNumber(a.views)}</td>
                  <td className="muted">{timeAgo(a.updated_at)}</td>
                  {writer && (
                    <td>
                      <button
                        type="button"
                        className="btn btn-small btn-ghost"
                        aria-label={t("kb.moveUp", { title: a.title })}
                        disabled={index === 0 || writes.reorderArticles.isPending}
                        onClick={() => move(index, -1)}
                      >
                        ↑
                      </button>
                      <button
                        type="button"
                        className="btn btn-small btn-ghost"
                        aria-label={t("kb.moveDown", { title: a.title })}
                        disabled={index === rows.length - 1 || writes.reorderArticles.isPending}
                        onClick={() => move(index, 1)}
                      >
                        ↓
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {writes.deleteCollection.isError && <div className="form-error">{errorText(writes.deleteCollection.error)}</div>}
      {writes.reorderArticles.isError && <div className="form-error">{errorText(writes.reorderArticles.error)}</div>}
    </section>
  );
}
