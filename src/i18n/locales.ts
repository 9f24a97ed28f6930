/**
 * Locale negotiation (DECISIONS.md "Languages"): BCP 47 tags, matched case-insensitively, a bare
 * language picking its shipped regional variant (`pt` → `pt-BR`) and a regional tag falling back
 * to its language (`de-AT` → `de`).
 */

export const SHIPPED_LOCALES = ["en", "de", "fr", "es", "pt-BR", "nl"] as const;
export type Locale = (typeof SHIPPED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** The display name of each shipped locale in its own language, for language switchers. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  es: "Español",
  "pt-BR": "Português (Brasil)",
  nl: "Nederlands",
};

const TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

export function isShippedLocale(tag: unknown): tag is Locale {
  return typeof tag === "string" && (SHIPPED_LOCALES as readonly string[]).includes(tag);
}

/** The shipped locale spelled `tag` (any case), else null: what a path segment such as `/help/acme/pt-br/` names. */
export function exactLocale(tag: string): Locale | null {
  const lower = tag.toLowerCase();
  return SHIPPED_LOCALES.find((l) => l.toLowerCase() === lower) ?? null;
}

/** The shipped locale a tag names, however it is cased or however specific (`DE-de`, `pt`, `fr-CA`), else null. */
export function matchLocale(tag: string, among: readonly Locale[] = SHIPPED_LOCALES): Locale | null {
  const wanted = tag.trim();
  if (wanted.length > 35 || !TAG.test(wanted)) return null;
  const lower = wanted.toLowerCase();
  const exact = among.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const language = lower.split("-")[0];
  return (
    among.find((l) => l.toLowerCase() === language) ??
    among.find((l) => l.toLowerCase().split("-")[0] === language) ??
    null
  );
}

/** The first of the wanted tags (in order of preference) that matches one of `among`, else `fallback`. */
export function negotiateLocale(wanted: readonly string[], among: readonly Locale[], fallback: Locale): Locale {
  for (const tag of wanted) {
    const found = matchLocale(tag, among);
    if (found) return found;
  }
  return fallback;
}

/** MAX_ACCEPT_TAGS bounds the work one header costs: browsers send a handful. */
const MAX_ACCEPT_TAGS = 20;

/** An Accept-Language header's tags, most wanted first (q=0 and `*` left out). */
export function acceptedLanguages(header: string | null): string[] {
  if (!header) return [];
  return header
    .slice(0, 1000)
    .split(",")
    .slice(0, MAX_ACCEPT_TAGS)
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((t) => t.tag && t.tag !== "*" && t.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((t) => t.tag);
}

/**
 * A workspace's languages from its settings (WorkspaceSettings `locale`, default `en`, and `locales`,
 * the help center's, default `[locale]`); `primary` is `locale` when the help center offers it, else its first.
 */
export function workspaceLocales(settings: Record<string, unknown> | null | undefined): {
  locale: Locale;
  locales: Locale[];
  primary: Locale;
} {
  const locale = isShippedLocale(settings?.locale) ? settings.locale : DEFAULT_LOCALE;
  const listed = Array.isArray(settings?.locales) ? settings.locales.filter(isShippedLocale) : [];
  const locales = listed.length > 0 ? listed : [locale];
  return { locale, locales, primary: locales.includes(locale) ? locale : locales[0]! };
}

/**
 * A well-formed BCP 47 tag (at most 35 characters) in its canonical spelling (`DE-at` → `de-AT`), else null.
 * Any language, not only shipped ones: a contact may speak one Desk does not ship (mail falls back then).
 */
export function canonicalLocaleTag(tag: string): string | null {
  const trimmed = tag.trim();
  if (trimmed.length === 0 || trimmed.length > 35) return null;
  try {
    return Intl.getCanonicalLocales(trimmed)[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * The language Desk writes to a customer in (DECISIONS.md "Languages"): their own (`Contact.locale`)
 * when Desk ships it or its language (`de-AT` → `de`), else the workspace's `locale`.
 */
export function customerLocale(
  contactLocale: string | null | undefined,
  settings: Record<string, unknown> | null | undefined,
): Locale {
  return (contactLocale ? matchLocale(contactLocale) : null) ?? workspaceLocales(settings).locale;
}

/**
 * The language Desk writes to a member in: the one they chose (`users.locale`) when Desk ships it or
 * its language, else `fallback` (the workspace's `locale` for workspace mail; English for account mail,
 * since a person may belong to several workspaces).
 */
export function memberLocale(userLocale: string | null | undefined, fallback: Locale): Locale {
  return (userLocale ? matchLocale(userLocale) : null) ?? fallback;
}
