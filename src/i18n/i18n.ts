import { IntlMessageFormat } from "intl-messageformat";
import type english from "./catalogues/en.json";
import { DEFAULT_LOCALE, type Locale } from "./locales";

/**
 * The translation layer for everything Desk renders itself (help center, CSAT page, widget, mail):
 * ICU messages (plural, select, number) per locale and surface namespace in `catalogues/<locale>.json`,
 * English the fallback for a missing key. `bun run check:i18n` keeps every catalogue complete.
 */

type English = typeof english;
export type Namespace = keyof English;
export type MessageKey = { [N in Namespace]: `${N}.${keyof English[N] & string}` }[Namespace];
export type Catalogue = Record<string, Record<string, string>>;
export type MessageValues = Record<string, string | number | Date>;

// A locale's catalogue is read on first use only: an English-only desk never holds the others.
const LOADERS: Record<Locale, () => Catalogue> = {
  en: () => require("./catalogues/en.json"),
  de: () => require("./catalogues/de.json"),
  fr: () => require("./catalogues/fr.json"),
  es: () => require("./catalogues/es.json"),
  "pt-BR": () => require("./catalogues/pt-BR.json"),
  nl: () => require("./catalogues/nl.json"),
};

const catalogues = new Map<Locale, Catalogue>();

export function catalogueOf(locale: Locale): Catalogue {
  let found = catalogues.get(locale);
  if (!found) {
    found = LOADERS[locale]();
    catalogues.set(locale, found);
  }
  return found;
}

/** Compiled messages, at most one per locale and key (both finite), so the cache is bounded by the catalogues. */
const compiled = new Map<string, IntlMessageFormat>();

function messageOf(locale: Locale, key: MessageKey): { source: string; locale: Locale } {
  const [namespace, name] = key.split(".") as [string, string];
  const own = catalogueOf(locale)[namespace]?.[name];
  if (own !== undefined) return { source: own, locale };
  return { source: catalogueOf(DEFAULT_LOCALE)[namespace]?.[name] ?? key, locale: DEFAULT_LOCALE };
}

/** The message `key` in `locale` (else English) with its placeholders filled; values are text, never markup. */
export function t(locale: Locale, key: MessageKey, values?: MessageValues): string {
  const { source, locale: from } = messageOf(locale, key);
  const cacheKey = `${from}\u0000${key}`;
  let format = compiled.get(cacheKey);
  if (!format) {
    format = new IntlMessageFormat(source, from);
    compiled.set(cacheKey, format);
  }
  const out = format.format(values);
  return typeof out === "string" ? out : [out].flat().join("");
}

/** One namespace of a locale with English filling its gaps: what the widget downloads (its visitor's language only). */
export function messagesOf(locale: Locale, namespace: Namespace): Record<string, string> {
  return { ...catalogueOf(DEFAULT_LOCALE)[namespace], ...catalogueOf(locale)[namespace] };
}

/** A date (and optionally its time) as people of `locale` write it, in `timeZone` (UTC unless given). */
export function formatDate(
  locale: Locale,
  iso: string | Date,
  options: { time?: boolean; timeZone?: string } = {},
): string {
  return new Intl.DateTimeFormat(locale, {
    dateStyle: "long",
    ...(options.time ? { timeStyle: "short" } : {}),
    timeZone: options.timeZone ?? "UTC",
  }).format(typeof iso === "string" ? new Date(iso) : iso);
}

export function formatNumber(locale: Locale, value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(locale, options).format(value);
}

const RELATIVE_UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["week", 7 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1000],
];

/** "in 3 days", "vor 2 Stunden": `then` relative to `now` (the injected clock's), in its largest whole unit. */
export function formatRelative(locale: Locale, then: Date, now: Date): string {
  const diff = then.getTime() - now.getTime();
  const [unit, size] = RELATIVE_UNITS.find(([, ms]) => Math.abs(diff) >= ms) ?? ["second", 1000];
  return new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(Math.round(diff / size), unit);
}
