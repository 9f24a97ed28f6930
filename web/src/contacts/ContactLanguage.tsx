import { LOCALE_NAMES, SHIPPED_LOCALES, t } from "../lib/i18n/i18n";

/** A tag's name in its own language ("Svenska" for sv), else the tag itself. */
function ownName(tag: string): string {
  try {
    return new Intl.DisplayNames([tag], { type: "language" }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

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
  // A tag Desk ships no texts for (set through the API, or detected) stays shown as it is.
  const own = locale && !(SHIPPED_LOCALES as readonly string[]).includes(locale) ? locale : null;
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
        <option value="">{t("contacts.languageNotSet")}</option>
        {SHIPPED_LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
        {own && (
          <option value={own} lang={own}>
            {ownName(own)}
          </option>
        )}
      </select>
      <div id="contact-locale-hint" className="muted small">
        {t("contacts.languageHint")}
      </div>
    </div>
  );
}
