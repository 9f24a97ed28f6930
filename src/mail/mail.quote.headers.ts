import EmailReplyParser from "email-reply-parser";

/**
 * Where quoted history begins in a plain-text reply, by how each client family writes it:
 * attribution lines ("On … wrote:" and its forms in Gmail, Apple Mail, Thunderbird, Yahoo, Proton,
 * K-9, Zoho's dashed one), header blocks (Outlook desktop/web/mobile, Outlook for Mac, GMX/Web.de,
 * Samsung), "Original Message" separators, the app adverts of Outlook mobile and Windows Mail, and
 * attributions glued to the customer's line. Attribution lines are also asked of email-reply-parser
 * (crisp-oss, maintained, many locales). Languages are data, not control flow: extend a table.
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
  "пишет",
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
const VERBS = `(?:${ATTRIBUTION_VERBS.join("|")})`;
/**
 * The verb ends the line, with a colon (or Zoho's dashes); Hungarian Gmail puts the date in
 * brackets after it ("… ezt írta (időpont: 2026. jan. 5., H, 10:00):"); K-9, German Gmail on
 * Android and Lotus Notes put it after the verb ("schrieb am …:", "wrote on 05.01.2026 10:00:").
 */
const VERB_AT_END = new RegExp(
  `${VERBS}(?:\\s*\\([^()]{1,80}\\)\\s*[:：]|\\s*[:：]|\\s*-{2,})?\\s*$|\\b(?:schrieb am|a écrit le) .{4,60}:\\s*$|\\bwrote on \\d{1,4}[./-]\\d{1,2}[./-]\\d{2,4}\\b.{0,40}:\\s*$`,
  "iu",
);
/**
 * An attribution between dash runs: Android's "---- John Smith wrote ----", "------On … wrote-----",
 * and Zoho's in every language ("---- Am Mo, 05 Jan 2026 … schrieb Support <…> ----").
 */
const DASH_WRAPPED = /^\s*-{2,}([^-].{2,300}?)-{2,}\s*$/u;
const A_VERB = new RegExp(VERBS, "iu");
const isDashedAttribution = (line: string): boolean => {
  const inside = DASH_WRAPPED.exec(line)?.[1];
  return inside !== undefined && A_VERB.test(inside);
};
/** How attributions open in the languages that start them with a word (Gmail, Apple Mail, Thunderbird). */
const OPENERS = "(?:On|Am|Le|El|Il|Op|Em|Den|Dne|W dniu|Dnia|Στις|Vào|В)";
const OPENER = new RegExp(`^\\s*(?:-{2,}\\s*)?${OPENERS}\\s.{0,40}\\d`, "u");
/** "On Tue, Apr 11, 2017 at …": the opening of an English attribution, with its date. */
const OPENS_WITH_DATE = /^\s*On\s+\S.*\d/u;
const unclosedAngle = (text: string): boolean => (text.match(/</g)?.length ?? 0) > (text.match(/>/g)?.length ?? 0);
/** An attribution names a date, a time or an address; a sentence ending in "wrote:" rarely does. */
const SPECIFIC = /\d|@|<|\bvia\b/u;

/** "-----Original Message-----" and its translations; a forwarded message is not among them. */
const ORIGINAL_NAMES = [
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
  "ursprungligt meddelande",
  "özgün ileti",
  "αρχικό μήνυμα",
  "原始邮件",
  "原始郵件",
  "원본 메시지",
  "оригінальне повідомлення",
].join("|");
const ORIGINAL_MESSAGE = new RegExp(`^\\s*-{2,}\\s*(?:${ORIGINAL_NAMES})\\s*-{2,}\\s*$`, "iu");

/** A forwarded message is content the customer chose to send: nothing after its marker is trimmed. */
export const FORWARD_MARKER =
  /^\s*(?:-{2,}\s*(?:forwarded message|weitergeleitete nachricht|message transféré|mensaje reenviado|messaggio inoltrato|doorgestuurd bericht|vidarebefordrat meddelande|videresendt meddelelse|mensagem encaminhada|пересланное сообщение)\s*-{2,}|begin forwarded message:|anfang der weitergeleiteten nachricht:|début du message réexpédié\s*:)\s*$/iu;

/**
 * The fields of a header block, by what they say, in the languages Outlook (desktop, web, mobile),
 * Apple Mail, Thunderbird, Yahoo, GMX/Web.de, Proton and Zoho write them. Outlook orders them
 * From/Sent/To/Subject, Outlook for Mac and Apple Mail's forwards Date/From/To/Subject, German
 * Outlook Von/Gesendet/An/Betreff, and some locales put the date first ("Gesendet:", "Envoyé :");
 * French typography sets a (non-breaking) space before the colon.
 */
const FIELD_NAMES: Record<"from" | "date" | "to" | "subject", string[]> = {
  from: [
    "from",
    "von",
    "de",
    "van",
    "da",
    "från",
    "fra",
    "od",
    "от",
    "від",
    "lähettäjä",
    "feladó",
    "kimden",
    "từ",
    "発信者",
    "发件人",
    "寄件者",
    "差出人",
    "보낸 사람",
    "보낸사람",
    "afzender",
    "remitente",
    "mittente",
    "gönderen",
    "odesílatel",
    "από",
    "מאת",
  ],
  date: [
    "sent",
    "date",
    "gesendet",
    "datum",
    "envoyé(?: le)?",
    "verzonden",
    "skickat",
    "sendt",
    "inviato",
    "enviado(?: el)?",
    "enviada",
    "fecha",
    "data",
    "wysłano",
    "отправлено",
    "дата",
    "lähetetty",
    "elküldve",
    "gửi",
    "发送时间",
    "发送日期",
    "日期",
    "送信日時",
    "日付",
    "보낸 날짜",
    "tarih",
    "odesláno",
    "enviado em",
    "gönderildi",
    "đã gửi",
    "надіслано",
    "στάλθηκε",
    "נשלח",
  ],
  to: [
    "to",
    "an",
    "à",
    "a",
    "aan",
    "till",
    "til",
    "para",
    "do",
    "кому",
    "vastaanottaja",
    "címzett",
    "tới",
    "收件人",
    "宛先",
    "받는 사람",
    "cc",
    "kopie",
    "copie",
    "cc/cci",
    "kime",
    "komu",
    "đến",
    "προς",
    "אל",
  ],
  subject: [
    "subject",
    "betreff",
    "objet",
    "onderwerp",
    "ämne",
    "emne",
    "oggetto",
    "asunto",
    "assunto",
    "temat",
    "тема",
    "aihe",
    "tárgy",
    "chủ đề",
    "主题",
    "件名",
    "제목",
    "konu",
    "předmět",
    "θέμα",
    "נושא",
  ],
};
const FIELDS = Object.entries(FIELD_NAMES).map(
  ([kind, names]) =>
    [kind, new RegExp(`^\\s*\\*{0,2}(?:${names.join("|")})\\s*\\*{0,2}\\s*[:：]\\s*\\*{0,2}`, "iu")] as const,
);

/** Which field a line of a header block is (null: none). */
function fieldOf(line: string): string | null {
  if (line.length > 1000) return null;
  for (const [kind, pattern] of FIELDS) if (pattern.test(line)) return kind;
  return null;
}

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
  const specific = SPECIFIC.test(first) && !/[.!?…]$/.test(first);
  for (let later = i + 1; later < i + found.span; later++) {
    // A wrapped attribution goes on with its address or verb; a line that opens one ("On …", "Am …")
    // starts it, and what is above is the customer's, however much it looks like an address.
    if (specific && !OPENER.test(lines[later]!)) continue;
    const inner = attributionFrom(lines, later);
    if (inner.span > 0 && later + inner.span === i + found.span) return NONE;
  }
  return found;
}

function attributionFrom(lines: readonly string[], i: number): Attribution {
  const first = lines[i]!;
  if (!first.trim() || first.length > 400) return NONE;
  if (isDashedAttribution(first)) return { span: 1, needsQuote: false };
  let candidate = "";
  // Polymail and some webmails set the address of a long attribution on lines of its own, blank
  // lines between ("On Tue, … John Smith\n\n<\nmailto:…\n> wrote:"); only after an opening "On <date>".
  const gaps = OPENS_WITH_DATE.test(first) ? 3 : 0;
  let filled = 0;
  for (let span = 1; filled < (gaps ? 4 : 3) && span <= 3 + gaps && i + span <= lines.length; span++) {
    const line = lines[i + span - 1]!;
    if (!line.trim()) {
      if (span - filled > gaps) return NONE;
      continue;
    }
    // In that layout a line may start with the ">" that closes the address's "<"; otherwise a
    // quoted line is the quote, not more of the attribution.
    if (gaps && filled > 0 && /^\s*>/.test(line) && !unclosedAngle(candidate)) return NONE;
    filled++;
    candidate = filled === 1 ? line.trim() : `${candidate} ${line.trim()}`;
    if (candidate.length > 400) return NONE;
    if (VERB_AT_END.test(candidate) && SPECIFIC.test(candidate)) return { span, needsQuote: false };
    // The library's patterns cover date-and-address lines with no verb (Russian, Gmail ISO dates).
    if (/[:：]\s*$/.test(candidate) && SPECIFIC.test(candidate) && libraryKnowsHeader(candidate))
      return { span, needsQuote: false };
    if (DATE_AND_ADDRESS.test(candidate)) return { span, needsQuote: true };
  }
  return NONE;
}

/**
 * A header block at `i`: a field line, then more fields within a few lines (wrapped values such
 * as a long To list may sit between them), one of them who sent it. Clients start it with From
 * (Outlook, Apple Mail's forwards) or with the date (Outlook for Mac's "Date:", GMX and Web.de's
 * "Gesendet:", "Envoyé :"); every client names the sender, so lines without a From are the
 * customer's own ("Date: Monday works", "To: whoever handles invoices", a pasted header).
 */
export function headerBlockAt(lines: readonly string[], i: number): boolean {
  const first = i < lines.length ? fieldOf(lines[i]!) : null;
  if (first !== "from" && first !== "date") return false;
  const kinds = new Set([first]);
  for (let j = i + 1; j < Math.min(lines.length, i + 8); j++) {
    const kind = fieldOf(lines[j]!);
    if (kind) kinds.add(kind);
    if (kinds.has("from") && kinds.size >= (first === "from" ? 2 : 3)) return true;
  }
  return false;
}

/**
 * The line Outlook for iOS/Android ("Get Outlook for iOS", "Sent from Outlook Mobile") and Windows
 * 10 Mail ("Sent from Mail for Windows 10") put above the quoted message: an advert of the app,
 * written by the client, not the customer, and part of the quote's chrome. A device signature
 * the person chose or kept ("Sent from my iPhone") is theirs and is not among these.
 */
const CLIENT_FOOTER = new RegExp(
  `^\\s*(?:${[
    "get outlook for (?:ios|android)",
    "sent from outlook(?: mobile| for (?:ios|android))?",
    "outlook für (?:ios|android) beziehen",
    "obtenir outlook pour (?:ios|android)",
    "descargar outlook para (?:ios|android)",
    "scarica outlook per (?:ios|android)",
    "outlook voor (?:ios|android) downloaden",
    "sent from mail for windows(?: 1[01])?",
    "von mail für windows(?: 1[01])? gesendet",
    "envoyé à partir de courrier pour windows(?: 1[01])?",
    "enviado desde correo para windows(?: 1[01])?",
    "inviato da posta per windows(?: 1[01])?",
    "verzonden vanuit mail voor windows(?: 1[01])?",
  ].join("|")})\\s*(?:<[^<>\\s]*>|\\(?https?:\\S*\\)?)?\\s*$`,
  "iu",
);
export const isClientFooter = (line: string): boolean => line.length < 200 && CLIENT_FOOTER.test(line);

/**
 * Where an attribution or separator glued to the end of the customer's own line starts. Mobile
 * clients and webmails that send the reply as one paragraph drop the line break before it ("Sounds
 * good. On Mon, … wrote:", "Thanks.---- On … wrote ----", "Carol-----Original Message-----"). Only
 * after a sentence end or at a dash run, and only where an attribution opens ("On", "Am", "Le", …),
 * so a whole attribution with abbreviations in it ("man. 5. jan. … skrev …:") is not split.
 */
const GLUE_POINT = new RegExp(`[.!?…)]["'»”]?\\s+(?=${OPENERS}\\s)|\\s*(?=-{2,})`, "gu");
const GLUED_SEPARATOR = new RegExp(`^(.*?[^\\s-])\\s*(-{2,}\\s*(?:${ORIGINAL_NAMES})\\s*-{2,})\\s*$`, "iu");

/** A cheap first look: most lines have neither a dash run nor an opener after a sentence end. */
const MAY_BE_GLUED = new RegExp(`--|[.!?…)]["'»”]?\\s+${OPENERS}\\s`, "u");

export function splitGlued(line: string): [string, string] | null {
  if (line.length > 1000 || /^\s*[>|]/.test(line) || !MAY_BE_GLUED.test(line)) return null;
  const separator = GLUED_SEPARATOR.exec(line);
  if (separator) return [separator[1]!, separator[2]!];
  if (!VERB_AT_END.test(line) && !/-{2,}\s*$/.test(line)) return null;
  let found: [string, string] | null = null;
  for (const match of line.matchAll(GLUE_POINT)) {
    const at = match.index + match[0].length;
    const prefix = line.slice(0, at).trimEnd();
    if (!/[\p{L}\p{N}.!?…)]$/u.test(prefix)) continue;
    const suffix = line.slice(at).trim();
    const attribution = attributionFrom([suffix], 0);
    if (attribution.span === 1 && !attribution.needsQuote) found = [prefix, suffix];
  }
  return found;
}

export const isOriginalMessageSeparator = (line: string): boolean => ORIGINAL_MESSAGE.test(line);
export const isRule = (line: string): boolean => RULE.test(line);
