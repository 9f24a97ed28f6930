import { trimQuotedText } from "./mail.quote.text";

export type TrimmedBody = { html: string | null; text: string; hasQuoted: boolean };

export function trimQuoted(html: string | null, text: string): TrimmedBody {
  const t = trimQuotedText(text);
  return { html, text: t.text, hasQuoted: t.trimmed };
}
