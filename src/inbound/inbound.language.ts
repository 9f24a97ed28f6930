import { canonicalLocaleTag } from "../i18n/locales";
import type { ParsedEmail } from "../mail/mail.parse";

/**
 * The language a customer wrote in, learnt from an inbound mail: its `Content-Language` header
 * (RFC 3282: the first of its tags) when present, else the language of the plain-text body when
 * the detector is confident. The detector (franc-min) is loaded on the first mail that needs it,
 * never at start: an idle desk does not hold its trigram tables.
 */

/** Less text than this (letters, after links and addresses are taken out) is too little to judge. */
const MIN_LETTERS = 40;
/** The detector reads at most this much of the body: the start of a message says its language. */
const MAX_CHARS = 2000;
/** The runner-up must score below this (the best scores 1): Spanish and Portuguese are close kin. */
const MAX_RUNNER_UP = 0.9;

/** franc's ISO 639-3 codes as BCP 47 language tags, for the languages it knows that a customer may write. */
const TAGS: Record<string, string> = {
  eng: "en",
  deu: "de",
  fra: "fr",
  spa: "es",
  por: "pt",
  nld: "nl",
  ita: "it",
  pol: "pl",
  swe: "sv",
  dan: "da",
  nob: "nb",
  fin: "fi",
  ces: "cs",
  slk: "sk",
  hun: "hu",
  ron: "ro",
  tur: "tr",
  rus: "ru",
  ukr: "uk",
  ell: "el",
  bul: "bg",
  hrv: "hr",
  srp: "sr",
  slv: "sl",
  cat: "ca",
  ind: "id",
  vie: "vi",
  arb: "ar",
  jpn: "ja",
  cmn: "zh",
  kor: "ko",
  hin: "hi",
};

type FrancAll = (text: string, options?: { minLength?: number }) => Array<[string, number]>;
let detector: Promise<FrancAll> | null = null;

/** The tag the `Content-Language` header names first, canonical, else null (a malformed header says nothing). */
export function contentLanguageOf(email: Pick<ParsedEmail, "headers">): string | null {
  const header = email.headers.get("content-language")?.[0];
  if (!header) return null;
  const first = header.slice(0, 200).split(",")[0]!.trim();
  return first === "" || first === "*" ? null : canonicalLocaleTag(first);
}

/** The language of `text` as a BCP 47 language tag when the detector is confident, else null. */
export async function detectLanguage(text: string): Promise<string | null> {
  const sample = text
    .slice(0, MAX_CHARS)
    .replace(/\bhttps?:\/\/\S+/gi, " ")
    .replace(/\S+@\S+/g, " ");
  if ((sample.match(/\p{L}/gu) ?? []).length < MIN_LETTERS) return null;
  detector ??= import("franc-min").then((m) => m.francAll as FrancAll);
  const ranked = (await detector)(sample, { minLength: MIN_LETTERS });
  const [best, runnerUp] = ranked;
  if (!best || best[0] === "und") return null;
  if (runnerUp && runnerUp[1] >= MAX_RUNNER_UP) return null;
  return TAGS[best[0]] ?? null;
}

/** What an inbound mail says of its writer's language: the header's word first, else the body's. */
export async function languageOfMail(email: Pick<ParsedEmail, "headers">, bodyText: string): Promise<string | null> {
  return contentLanguageOf(email) ?? (await detectLanguage(bodyText));
}
