/** Words that depend on a number or a letter: articles, plurals and times as people say them. */

/** "an agent", "a viewer". */
export const withArticle = (word: string) => `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}`;

/** "1 ticket", "3 tickets" (English plural rules through Intl, so "0 tickets" too). */
const pluralRules = new Intl.PluralRules("en-US");
export const plural = (n: number, one: string, other: string) =>
  `${n} ${pluralRules.select(n) === "one" ? one : other}`;

const relative = new Intl.RelativeTimeFormat("en-US", { numeric: "auto" });
const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 7],
  ["week", 4.35],
  ["month", 12],
  ["year", Number.POSITIVE_INFINITY],
];

/**
 * "now", "5 minutes ago", "in 7 days", "yesterday": a whole phrase, so callers never add "ago"
 * themselves (which gave "updated now ago").
 */
export function relativeTime(iso: string, now = Date.now()): string {
  let value = (new Date(iso).getTime() - now) / 1000;
  if (Math.abs(value) < 45) return "now";
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return relative.format(Math.round(value), "year");
}

const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
/** A date and time in the reader's own locale and zone. */
export const dateTime = (iso: string) => absolute.format(new Date(iso));
