import { t } from "../lib/i18n/i18n";
import { LanguageOptions } from "../lib/i18n/LanguageOptions";

/**
 * The language Desk writes to the contact in (its mail, portal pages): "Not set" or a shipped
 * locale by its own name. A choice here is never replaced by a language Desk detects later.
 */
export function ContactLanguage({
  locale,
  disabled,
  onPick,
}: {
  locale: string | null;
  disabled: boolean;
  onPick: (locale: string | null) => void;
}) {
  return (
    <div className="field">
      <label htmlFor="contact-locale">{t("contacts.language")}</label>
      <select
        id="contact-locale"
        value={locale ?? ""}
        disabled={disabled}
        aria-describedby="contact-locale-hint"
        onChange={(e) => onPick(e.target.value || null)}
      >
        <LanguageOptions none={t("contacts.languageNotSet")} current={locale} />
      </select>
      <div id="contact-locale-hint" className="muted small">
        {t("contacts.languageHint")}
      </div>
    </div>
  );
}
