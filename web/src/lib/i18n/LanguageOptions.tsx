import { LOCALE_NAMES, SHIPPED_LOCALES } from "./i18n";

/** A tag's language named in that language ("العربية" for ar), else the tag itself. */
function ownName(tag: string): string {
  try {
    return new Intl.DisplayNames([tag], { type: "language" }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/**
 * The options of a language select: `none` first (empty value), then each shipped language by its
 * own name, and `current` as it is when it is a tag Desk ships no texts for (set through the API,
 * or detected), so choosing another never loses it silently.
 */
export function LanguageOptions({ none, current }: { none: string; current: string | null }) {
  const own = current && !(SHIPPED_LOCALES as readonly string[]).includes(current) ? current : null;
  return (
    <>
      <option value="">{none}</option>
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
    </>
  );
}
