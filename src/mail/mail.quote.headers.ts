import EmailReplyParser from "email-reply-parser";

/**
 * Where quoted history begins in a plain-text reply: attribution lines ("On … wrote:" in many
 * languages), Outlook-style header blocks and "Original Message" separators. Attribution lines
 * are first asked of email-reply-parser (crisp-oss, maintained, many locales); the tables here add
 * what it lacks: the verbs of further languages, header blocks whose From has no address, and
 * header-field names of the clients in our corpus. Data, not control flow: extend a table.
 */

/** Verbs that end an attribution line, in the languages clients write them (with an optional colon). */
const ATTRIBUTION_VERBS = [
  "wrote",
  "writes",
  "schrieb",
  "écrit",
  "escribió",
  "scritto",
  "escreveu",
  "schreef",
  "geschreven",
  "skrev",
  "kirjoitti",
  "napisał\\(a\\)",
  "napisał",
  "napisała",
  "pisze",
  "написал",
  "написала",
  "написав",
  "написала",
  "пише",
  "írta",
  "đã viết",
  "写道",
  "寫道",
  "작성",
  "のメッセージ",
  "yazdı",
  "napsal",
  "napisal",
  "scrie",
  "έγραψε",
  "כתב",
];
const VERB_AT_END = new RegExp(
  `(?:${ATTRIBUTION_VERBS.join("|")})\\s*(?:[:：]|-{2,})?\\s*$|\\bschrieb am .{4,60}:\\s*$`,
  "iu",
);
/** "---- John Smith wrote ----" (Android) and "------On … wrote-----". */
const DASHED_ATTRIBUTION = /^\s*-{2,}\s*.{2,200}\b(?:wrote|schrieb|écrit)\s*-{2,}\s*$/iu;
/** An attribution names a date, a time or an address; a sentence ending in "wrote:" rarely does. */
const SPECIFIC = /\d|@|<|\bvia\b/u;

/** "-----Original Message-----" and its translations; a forwarded message is not among them. */
const ORIGINAL_MESSAGE = new RegExp(
  `^\\s*-{2,}\\s*(?:${[
    "original message",
    "ursprüngliche nachricht",
    "oprindelig meddelelse",
    "oprindelig besked",
    "mensaje original",
    "message d'origine",
    "messaggio originale",
    "oorspronkelijk bericht",
    "originalmeddelande",
    "opprinnelig melding",
    "alkuperäinen viesti",
    "исходное сообщение",
    "původní zpráva",
    "wiadomość oryginalna",
    "mensagem original",
    "eredeti üzenet",
  ].join("|")})\\s*-{2,}\\s*$`,
  "iu",
);

/** A forwarded message is content the customer chose to send: nothing after its marker is trimmed. */
export const FORWARD_MARKER =
  /^\s*(?:-{2,}\s*(?:forwarded message|weitergeleitete nachricht|message transféré|mensaje reenviado|messaggio inoltrato|doorgestuurd bericht|vidarebefordrat meddelande|videresendt meddelelse|mensagem encaminhada|пересланное сообщение)\s*-{2,}|begin forwarded message:|anfang der weitergeleiteten nachricht:|début du message réexpédié\s*:)\s*$/iu;

/** The first field of a header block: who sent the quoted message, possibly bold (`*From:*`). */
const FROM_FIELD =
  /^\s*\*?(?:from|von|de|van|da|från|fra|od|от|від|lähettäjä|feladó|kimden|từ|发件人|寄件者|差出人|보낸 사람|보낸사람)\s*\*?\s*[:：]\s*\*?\s*\S/iu;
/** The other fields of a header block. */
const OTHER_FIELD =
  /^\s*\*?(?:sent|date|to|subject|cc|reply-to|gesendet|datum|an|betreff|envoyé(?: le)?|date|à|objet|verzonden|aan|onderwerp|skickat|till|ämne|sendt|til|emne|inviato|a|oggetto|enviado|enviada|para|asunto|fecha|assunto|data|wysłano|do|temat|отправлено|кому|тема|дата|lähetetty|vastaanottaja|aihe|elküldve|címzett|tárgy|gửi|tới|chủ đề|发送时间|发送日期|收件人|主题|日期|送信日時|宛先|件名|보낸 날짜|받는 사람|제목)\s*\*?\s*[:：]/iu;
/** A rule Outlook draws above the header block. */
const RULE = /^\s*(?:_{5,}|-{5,})\s*$/u;

let parser: EmailReplyParser | null = null;

/** Whether email-reply-parser reads `candidate` as a quote header when a quote follows it. */
function libraryKnowsHeader(candidate: string): boolean {
  parser ??= new EmailReplyParser();
  const fragments = parser.read(`Reply\n\n${candidate}\n\n> quoted`).getFragments();
  return fragments.some((f) => f.isQuoted() && f.getContent().includes(candidate.trim().slice(0, 12)));
}

/** A date and an address with no verb ("2013/7/20 sam via Meta <info@…>"): an attribution only above a quote. */
const DATE_AND_ADDRESS =
  /^\S*\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}\b.*@.*[>:]\s*$|\b(?:19|20)\d\d\b.*<[^<>\s]+@[^<>\s]+>\s*[:：]\s*$/u;

export type Attribution = { span: number; needsQuote: boolean };
const NONE: Attribution = { span: 0, needsQuote: false };

/**
 * How many lines (1 to 3) an attribution starting at `i` spans (0: none), and whether it counts
 * only above a quoted block. Clients wrap long attributions ("On …, Name <\naddress> wrote:"), so
 * up to three lines are read together. A first line with no date or address, or ending a sentence,
 * is the customer's last line when an attribution can start below it: it is left to the customer.
 */
export function attributionAt(lines: readonly string[], i: number): Attribution {
  const found = attributionFrom(lines, i);
  if (found.span < 2) return found;
  const first = lines[i]!.trim();
  if (SPECIFIC.test(first) && !/[.!?…]$/.test(first)) return found;
  for (let later = i + 1; later < i + found.span; later++) {
    const inner = attributionFrom(lines, later);
    if (inner.span > 0 && later + inner.span === i + found.span) return NONE;
  }
  return found;
}

function attributionFrom(lines: readonly string[], i: number): Attribution {
  const first = lines[i]!;
  if (!first.trim() || first.length > 400) return NONE;
  if (DASHED_ATTRIBUTION.test(first)) return { span: 1, needsQuote: false };
  let candidate = "";
  for (let span = 1; span <= 3 && i + span <= lines.length; span++) {
    const line = lines[i + span - 1]!;
    if (!line.trim()) return NONE;
    candidate = span === 1 ? line.trim() : `${candidate} ${line.trim()}`;
    if (candidate.length > 400) return NONE;
    if (VERB_AT_END.test(candidate) && SPECIFIC.test(candidate)) return { span, needsQuote: false };
    // The library's patterns cover date-and-address lines with no verb (Russian, Gmail ISO dates).
    if (/[:：]\s*$/.test(candidate) && SPECIFIC.test(candidate) && libraryKnowsHeader(candidate))
      return { span, needsQuote: false };
    if (DATE_AND_ADDRESS.test(candidate)) return { span, needsQuote: true };
  }
  return NONE;
}

/** An Outlook-style header block (From plus at least one more field within a few lines) at `i`. */
export function headerBlockAt(lines: readonly string[], i: number): boolean {
  if (!FROM_FIELD.test(lines[i]!)) return false;
  // Wrapped values (a long To list) may sit between the fields; one more field is enough.
  for (let j = i + 1; j < Math.min(lines.length, i + 7); j++) if (OTHER_FIELD.test(lines[j]!)) return true;
  return false;
}

export const isOriginalMessageSeparator = (line: string): boolean => ORIGINAL_MESSAGE.test(line);
export const isRule = (line: string): boolean => RULE.test(line);
