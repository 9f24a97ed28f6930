/**
 * Reply and forward prefixes in the languages mail clients write them (English, German, Nordic,
 * Dutch, French, Spanish/Portuguese, Italian), optionally counted (`Re[2]:`, `AW(3):`), and our
 * `[#123]` ticket tags. A subject without them names the conversation.
 */
const PREFIX = /^\s*(?:re|fw|fwd|aw|wg|sv|vs|antw|tr|rv)\s*(?:\[\d{1,4}\]|\(\d{1,4}\))?\s*[:：]\s*/i;
const TICKET_TAG = /\s*\[#\d{1,15}\]\s*/g;
/** Enough for any real chain of prefixes; a hostile subject stops being stripped here. */
const MAX_PREFIXES = 50;

/** The subject without reply/forward prefixes and ticket tags, its case kept (Outlook's Thread-Topic). */
export function stripSubjectPrefixes(subject: string): string {
  let rest = subject.replace(TICKET_TAG, " ").replace(/\s+/g, " ").trim();
  for (let i = 0; i < MAX_PREFIXES; i++) {
    const match = PREFIX.exec(rest);
    if (!match) break;
    rest = rest.slice(match[0].length);
  }
  return rest.trim();
}

/** True when the subject starts with a reply or forward prefix. */
export const hasReplyPrefix = (subject: string): boolean => PREFIX.test(subject.replace(TICKET_TAG, " "));

/** The subject two mails of one conversation share: prefixes and tags stripped, case and spacing folded. */
export const normalizedSubject = (subject: string): string => stripSubjectPrefixes(subject).toLowerCase();
