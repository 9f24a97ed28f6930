import { useRef, useState } from "react";
import { api, apiStream } from "../lib/api/client";
import type { AiDraft, AiRewrite, AiTranslation } from "../lib/api/types";
import { errorText } from "../lib/ui/states";
import { textToHtml } from "../lib/text";
import { LANGUAGES, REWRITE_MODES } from "./ai.queries";
import { t } from "../lib/i18n/i18n";

type Props = {
  ticketId: string;
  text: string;
  setText: (text: string) => void;
  area: React.RefObject<HTMLTextAreaElement | null>;
  disabled?: boolean;
};

/**
 * The composer's AI tools: a draft streamed into the reply, rewrite modes and translation of the
 * selected text (or the whole reply when nothing is selected). Stop cancels the stream (and the
 * provider call on the server).
 */
export function ComposerAi({ ticketId, text, setText, area, disabled }: Props) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const stopper = useRef<AbortController | null>(null);

  /** The selected part of the reply, or all of it. */
  const target = () => {
    const el = area.current;
    const start = el?.selectionStart ?? 0;
    const end = el?.selectionEnd ?? 0;
    return start !== end ? { start, end } : { start: 0, end: text.length };
  };

  const run = async (label: string, work: (signal: AbortSignal) => Promise<void>) => {
    const controller = new AbortController();
    stopper.current = controller;
    setBusy(label);
    setError(null);
    try {
      await work(controller.signal);
    } catch (e) {
      if (!controller.signal.aborted) setError(errorText(e));
    } finally {
      setBusy(null);
      stopper.current = null;
    }
  };

  const draft = () =>
    run(t("ai.drafting"), async (signal) => {
      const before = text.trim() ? `${text.trimEnd()}\n\n` : "";
      let streamed = "";
      const done = await apiStream<AiDraft>(
        `/tickets/${ticketId}/ai/draft`,
        {},
        (piece) => {
          streamed += piece;
          setText(before + streamed);
        },
        signal,
      );
      setText(before + done.body_text);
    });

  const replaceTarget = (replacement: string) => {
    const { start, end } = target();
    setText(text.slice(0, start) + replacement + text.slice(end));
  };

  const rewrite = (mode: string) =>
    run(t("ai.rewriting"), async (signal) => {
      const { start, end } = target();
      const result = await api<AiRewrite>("/ai/rewrite", {
        body: { html: textToHtml(text.slice(start, end)), mode },
        signal,
      });
      replaceTarget(result.text);
    });

  const translate = (language: string) =>
    run(t("ai.translating"), async (signal) => {
      const { start, end } = target();
      const result = await api<AiTranslation>("/ai/translate", {
        body: { text: text.slice(start, end), target: language },
        signal,
      });
      replaceTarget(result.text ?? "");
    });

  const empty = text.trim().length === 0;
  return (
    <div className="composer-ai" role="toolbar" aria-label={t("ai.tools")}>
      <button type="button" className="btn btn-small" disabled={disabled || !!busy} onClick={draft}>
        {t("ai.draft")}
      </button>
      <select
        aria-label={t("ai.rewriteWith")}
        value=""
        disabled={disabled || !!busy || empty}
        onChange={(e) => e.target.value && rewrite(e.target.value)}
      >
        <option value="">{t("ai.rewritePick")}</option>
        {REWRITE_MODES.map((mode) => (
          <option key={mode} value={mode}>
            {t("ai.rewriteMode", { mode })}
          </option>
        ))}
      </select>
      <select
        aria-label={t("ai.translateWith")}
        value=""
        disabled={disabled || !!busy || empty}
        onChange={(e) => e.target.value && translate(e.target.value)}
      >
        <option value="">{t("ai.translatePick")}</option>
        {LANGUAGES.map((tag) => (
          <option key={tag} value={tag}>
            {t("ai.language", { tag })}
          </option>
        ))}
      </select>
      {busy && (
        <>
          <span className="muted small" role="status">
            {busy}
          </span>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => stopper.current?.abort()}>
            {t("ai.stop")}
          </button>
        </>
      )}
      {error && (
        <span className="form-error small" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
