import { IntlMessageFormat } from "intl-messageformat";

/**
 * The widget's texts: the server sends only the visitor's language (GET /v1/widget/config `messages`,
 * src/i18n catalogues), so the script carries no catalogue of its own and stays small.
 */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

export function translator(locale: string, messages: Record<string, string>): Translate {
  const compiled = new Map<string, IntlMessageFormat>();
  return (key, values) => {
    const source = messages[key];
    if (source === undefined) return key;
    let format = compiled.get(key);
    if (!format) {
      try {
        format = new IntlMessageFormat(source, locale);
      } catch {
        return source;
      }
      compiled.set(key, format);
    }
    const out = format.format(values);
    return typeof out === "string" ? out : String(out);
  };
}

/** The language the embedding page asks for: the tag's `data-locale`, else the browser's. */
export function wantedLocale(script: HTMLScriptElement | null): string {
  const tag = script?.dataset.locale?.trim() || navigator.language || "";
  return /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(tag) && tag.length <= 35 ? tag : "";
}
