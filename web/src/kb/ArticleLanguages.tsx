import { useState } from "react";
import { workspaceLocales } from "../../../src/i18n/locales";
import { useAiOn } from "../ai/ai.queries";
import type { KbArticle } from "../lib/api/types";
import { activeLocale, t } from "../lib/i18n/i18n";
import { useWorkspace } from "../lib/resources/workspace";
import { Modal, timeAgo } from "../lib/ui/bits";
import { Field, FormError } from "../lib/ui/form";
import { ErrorBox, Loading } from "../lib/ui/states";
import { type KbTranslation, useTranslations, useTranslationWrites } from "./kb.queries";
import { RichTextEditor } from "./RichTextEditor";

/** A language's name in the app's language ("German", "Allemand"), from its BCP 47 tag. */
const languageName = (tag: string) => new Intl.DisplayNames([activeLocale()], { type: "language" }).of(tag) ?? tag;

type State = "missing" | "draft" | "published" | "outdated";
const stateOf = (row: KbTranslation | undefined): State =>
  !row ? "missing" : row.outdated ? "outdated" : row.status === "published" ? "published" : "draft";
const STATE_LABEL = {
  missing: "kb.stateMissing",
  draft: "kb.stateDraft",
  published: "kb.statePublished",
  outdated: "kb.stateOutdated",
} as const;
const STATE_PILL: Record<State, string> = {
  missing: "",
  draft: "pill-pending",
  published: "pill-active",
  outdated: "pill-on_hold",
};

/**
 * The article's languages panel: each of the help center's other languages with its translation's
 * state (missing, draft, published, or outdated: the article changed after it was saved), and a
 * dialog to write, publish or delete one.
 */
export function ArticleLanguages({ article, writer }: { article: KbArticle; writer: boolean }) {
  const workspace = useWorkspace();
  const translations = useTranslations(article.id);
  const [open, setOpen] = useState<string | null>(null);
  if (!workspace.data) return null;
  const { locale, locales } = workspaceLocales(workspace.data.settings as Record<string, unknown> | undefined);
  const others = locales.filter((l) => l !== locale);
  const byLocale = new Map((translations.data ?? []).map((row) => [row.locale, row]));
  return (
    <section className="kb-languages" aria-labelledby="kb-languages-title">
      <h2 id="kb-languages-title">{t("kb.languagesTitle")}</h2>
      {others.length === 0 ? (
        <p className="muted small">{t("kb.languagesNone", { language: languageName(locale) })}</p>
      ) : translations.isPending ? (
        <Loading />
      ) : translations.isError ? (
        <ErrorBox error={translations.error} retry={() => translations.refetch()} />
      ) : (
        <>
          <p className="muted small">{t("kb.languagesIntro", { language: languageName(locale) })}</p>
          <div className="table-scroll">
            <table className="table">
              <thead>
                <tr>
                  <th>{t("kb.languageColumn")}</th>
                  <th>{t("kb.stateColumn")}</th>
                  <th>{t("kb.updatedColumn")}</th>
                  <th>
                    <span className="visually-hidden">{t("kb.actionsColumn")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {others.map((l) => {
                  const row = byLocale.get(l);
                  const state = stateOf(row);
                  return (
                    <tr key={l} data-testid={`translation-${l}`}>
                      <td>{languageName(l)}</td>
                      <td>
                        <span className={`pill ${STATE_PILL[state]}`}>{t(STATE_LABEL[state])}</span>
                        {state === "outdated" && (
                          <span className="muted small">
                            {" "}
                            {row?.status === "published" ? t("kb.outdatedPublished") : t("kb.outdatedDraft")}
                          </span>
                        )}
                      </td>
                      <td className="muted">{row ? timeAgo(row.updated_at) : ""}</td>
                      <td>
                        <button type="button" className="btn btn-small" onClick={() => setOpen(l)}>
                          {!writer
                            ? t("kb.viewTranslation", { language: languageName(l) })
                            : row
                              ? t("kb.editTranslation", { language: languageName(l) })
                              : t("kb.addTranslation", { language: languageName(l) })}
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
      {open && (
        <TranslationDialog
          key={open}
          article={article}
          locale={open}
          current={byLocale.get(open)}
          writer={writer}
          onClose={() => setOpen(null)}
        />
      )}
    </section>
  );
}

type DialogProps = {
  article: KbArticle;
  locale: string;
  current: KbTranslation | undefined;
  writer: boolean;
  onClose: () => void;
};

function TranslationDialog({ article, locale, current, writer, onClose }: DialogProps) {
  const writes = useTranslationWrites(article.id);
  const aiOn = useAiOn();
  const [title, setTitle] = useState(current?.title ?? "");
  const [html, setHtml] = useState(current?.body_html ?? "");
  const [drafted, setDrafted] = useState(false);
  const published = current?.status === "published";
  const language = languageName(locale);
  const busy = writes.save.isPending || writes.remove.isPending || writes.draft.isPending;
  const save = (status: "draft" | "published") =>
    writes.save.mutate({ locale, title, body_html: html, status }, { onSuccess: onClose });

  return (
    <Modal title={t("kb.translationDialogTitle", { language })} onClose={onClose} wide>
      <form
        className="stack kb-editor"
        onSubmit={(e) => {
          e.preventDefault();
          save(published ? "published" : "draft");
        }}
        noValidate
      >
        {current?.outdated && <p className="muted small">{t("kb.outdatedHint")}</p>}
        {drafted && (
          <p className="muted small" role="status">
            {t("kb.aiDraftReview")}
          </p>
        )}
        <Field label={t("kb.translationTitleLabel")} name="title" error={writes.save.error}>
          <input lang={locale} value={title} onChange={(e) => setTitle(e.target.value)} disabled={!writer} />
        </Field>
        <div className="field">
          <span className="field-label">{t("kb.bodyLabel")}</span>
          <RichTextEditor
            html={html}
            onChange={setHtml}
            label={t("kb.translationBodyLabel", { language })}
            lang={locale}
            disabled={!writer}
          />
        </div>
        <FormError error={writes.save.error} fields={["title"]} />
        <FormError error={writes.remove.error} />
        <FormError error={writes.draft.error} />
        {writer && (
          <div className="actions">
            {aiOn && (
              <DraftWithAi
                draft={writes.draft}
                source={{ title: article.title, html: article.body_html, target: locale }}
                disabled={busy}
                onDrafted={(draft) => {
                  setTitle(draft.title);
                  setHtml(draft.body_html);
                  setDrafted(true);
                }}
              />
            )}
            <button type="submit" className="btn" disabled={busy}>
              {published ? t("kb.saveAndUpdate") : t("kb.saveDraft")}
            </button>
            {published ? (
              <button type="button" className="btn" disabled={busy} onClick={() => save("draft")}>
                {t("kb.unpublish")}
              </button>
            ) : (
              <button type="button" className="btn btn-primary" disabled={busy} onClick={() => save("published")}>
                {t("kb.publish")}
              </button>
            )}
            <span className="grow" />
            {current && (
              <button
                type="button"
                className="btn btn-danger"
                disabled={busy}
                onClick={() => {
                  if (window.confirm(t("kb.confirmDeleteTranslation", { language })))
                    writes.remove.mutate(locale, { onSuccess: onClose });
                }}
              >
                {t("kb.deleteTranslation")}
              </button>
            )}
          </div>
        )}
      </form>
    </Modal>
  );
}

/** Fills the dialog with the AI's translation of the article, for the agent to review; saving stays theirs. */
function DraftWithAi({
  draft,
  source,
  disabled,
  onDrafted,
}: {
  draft: ReturnType<typeof useTranslationWrites>["draft"];
  source: { title: string; html: string; target: string };
  disabled: boolean;
  onDrafted: (draft: { title: string; body_html: string }) => void;
}) {
  return (
    <button
      type="button"
      className="btn"
      disabled={disabled}
      onClick={() => draft.mutate(source, { onSuccess: onDrafted })}
    >
      {draft.isPending ? t("kb.translating") : t("kb.draftWithAi")}
    </button>
  );
}
