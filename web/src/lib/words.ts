import { formatDateTime } from "./i18n/i18n";

/** Words that depend on a number or a letter: articles, plurals and times as people say them. */

/** "an agent", "a viewer". */
export const withArticle = (word: string) => `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}`;

/** "1 ticket", "3 tickets" (English plural rules through Intl, so "0 tickets" too). */
const pluralRules = new Intl.PluralRules("en-US");
export const plural = (n: number, one: string, other: string) =>
  `${n} ${pluralRules.select(n) === "one" ? one : other}`;

/** Relative and absolute times in the app's active language (lib/i18n). */
export { relativeTime } from "./i18n/i18n";

/** A date and time in the reader's own zone, written as their language writes it. */
export const dateTime = (iso: string) => formatDateTime(iso);
