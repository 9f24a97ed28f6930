import { IntlMessageFormat } from "intl-messageformat";
import {
  DEFAULT_LOCALE,
  type Locale,
  matchLocale,
  negotiateLocale,
  SHIPPED_LOCALES,
} from "../../../../src/i18n/locales";
import english from "../../i18n/en";

/**
 * The agent app's texts: ICU messages (plural, select, number) per namespace in
 * `web/src/i18n/<locale>/<namespace>.json`. English ships in the main bundle and fills any gap;
 * another language is one chunk loaded when a member uses it. `t` reads the active catalogue, so it
 * works in components and in plain helpers alike; the app re-renders its tree when the language
 * changes (useAppLocale). `bun run check:i18n` keeps every catalogue complete.
 */

type English = typeof english;
export type Namespace = keyof English;
export type MessageKey = { [N in Namespace]: `${N}.${keyof English[N] & string}` }[Namespace];
export type MessageValues = Record<string, string | number | Date>;
type Catalogue = Record<string, Record<string, string>>;

const LOADERS: Record<Exclude<Locale, "en">, () => Promise<{ default: Catalogue }>> = {
  de: () => import("../../i18n/de"),
  fr: () => import("../../i18n/fr"),
  es: () => import("../../i18n/es"),
  "pt-BR": () => import("../../i18n/pt-BR"),
  nl: () => import("../../i18n/nl"),
};

let active: { locale: Locale; messages: Catalogue } = { locale: DEFAULT_LOCALE, messages: english };
const compiled = new Map<string, IntlMessageFormat>();

/** The message `key` in the active language (else English) with its placeholders filled; values are text, never markup. */
export function t(key: MessageKey, values?: MessageValues): string {
  const [namespace, name] = key.split(".") as [string, string];
  const own = active.messages[namespace]?.[name];
  const locale = own === undefined ? DEFAULT_LOCALE : active.locale;
  const source = own ?? (english as Catalogue)[namespace]?.[name] ?? key;
  const cacheKey = `${locale}\u0000${key}`;
  let format = compiled.get(cacheKey);
  if (!format) {
    format = new IntlMessageFormat(source, locale);
    compiled.set(cacheKey, format);
  }
  const out = format.format(values);
  return typeof out === "string" ? out : [out].flat().join("");
}

/** The language the app's texts are in now (a shipped locale). */
export const activeLocale = (): Locale => active.locale;

export { LOCALE_NAMES, matchLocale, SHIPPED_LOCALES, type Locale } from "../../../../src/i18n/locales";

/**
 * The shipped locale for a member: their own choice, else the browser's languages, else the
 * workspace's default (DECISIONS.md "Languages": a member's locale defaults to the browser's).
 */
export function chooseLocale(memberLocale: string | null | undefined, workspaceLocale?: string | null): Locale {
  const own = memberLocale ? matchLocale(memberLocale) : null;
  if (own) return own;
  const fallback = (workspaceLocale && matchLocale(workspaceLocale)) || DEFAULT_LOCALE;
  return negotiateLocale(typeof navigator === "undefined" ? [] : navigator.languages, SHIPPED_LOCALES, fallback);
}

const RTL_LANGUAGES = new Set(["ar", "arc", "ckb", "dv", "fa", "he", "ks", "ku", "ps", "sd", "ug", "ur", "yi"]);

/** The writing direction of a BCP 47 tag's language (Intl's text info where the browser has it). */
export function directionOf(tag: string): "ltr" | "rtl" {
  try {
    const locale = new Intl.Locale(tag) as Intl.Locale & {
      getTextInfo?: () => { direction?: string };
      textInfo?: { direction?: string };
    };
    const direction = locale.getTextInfo?.().direction ?? locale.textInfo?.direction;
    if (direction === "rtl" || direction === "ltr") return direction;
    return RTL_LANGUAGES.has(locale.language) ? "rtl" : "ltr";
  } catch {
    return "ltr";
  }
}

/**
 * Makes `locale` the active language (loading its catalogue once) and marks the document with the
 * language of its texts and the direction of the member's own tag: a member whose language ships no
 * catalogue yet (Arabic, say) reads English text laid out right to left.
 */
export async function activateLocale(locale: Locale, memberTag?: string | null): Promise<void> {
  const messages = locale === "en" ? english : (await LOADERS[locale]()).default;
  active = { locale, messages };
  if (typeof document !== "undefined") {
    document.documentElement.lang = locale;
    document.documentElement.dir = directionOf(memberTag || locale);
  }
}

/**
 * Intl formatters cost far more to build than to use, and lists format a date per row: one per
 * language and options, kept (bounded by the options the app's code writes).
 */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>();
function formatterOf<F extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>(
  kind: string,
  options: object | undefined,
  make: () => F,
): F {
  const key = `${kind}\u0000${active.locale}\u0000${JSON.stringify(options ?? {})}`;
  let found = formatters.get(key);
  if (!found) {
    found = make();
    formatters.set(key, found);
  }
  return found as F;
}

/** Dates, times and numbers as people of the active language write them, in the reader's zone. */
export const formatDateTime = (
  iso: string | Date,
  options: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" },
) =>
  formatterOf("date", options, () => new Intl.DateTimeFormat(active.locale, options)).format(
    typeof iso === "string" ? new Date(iso) : iso,
  );

export const formatNumber = (value: number, options?: Intl.NumberFormatOptions) =>
  formatterOf("number", options, () => new Intl.NumberFormat(active.locale, options)).format(value);

const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 7],
  ["week", 4.35],
  ["month", 12],
  ["year", Number.POSITIVE_INFINITY],
];

/** "now", "5 minutes ago", "vor 5 Minuten", "in 7 days": a whole phrase in the active language. */
export function relativeTime(iso: string, now = Date.now()): string {
  let value = (new Date(iso).getTime() - now) / 1000;
  if (Math.abs(value) < 45) return t("common.now");
  const format = formatterOf(
    "relative",
    undefined,
    () => new Intl.RelativeTimeFormat(active.locale, { numeric: "auto" }),
  );
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return format.format(Math.round(value), unit);
    value /= size;
  }
  return format.format(Math.round(value), "year");
}
