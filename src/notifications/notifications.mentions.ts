/**
 * The mention markup: the note composer inserts `<span data-mention="<user id>">@Name</span>`. The
 * HTML sanitizer keeps `data-mention` on spans only when it looks like an id (src/lib/sanitize.ts),
 * so anything else a writer sends is dropped before storage. At most 20 people per note.
 */
const MENTION = /<span\b[^>]*\bdata-mention="([0-9A-Za-z-]{1,64})"/g;
const MAX_MENTIONS = 20;
/** A note with thousands of `@` is read only as far as this many: the work stays bounded per note. */
const MAX_AT_SIGNS = 200;

export function mentionedUserIds(html: string): string[] {
  const ids = new Set<string>();
  for (const match of html.matchAll(MENTION)) {
    ids.add(match[1]!);
    if (ids.size >= MAX_MENTIONS) break;
  }
  return [...ids];
}

export type MentionCandidate = { id: string; name: string; email: string };

const WORD = /[\p{L}\p{N}_]/u;
// Address characters before a `@` make it part of an address (`ann@example.com`), not a mention.
const EMAIL_CHAR = /[\p{L}\p{N}_.+-]/u;

/** An address ends where no address character follows, a sentence's full stop aside. */
function addressEndsAt(text: string, end: number): boolean {
  const next = text[end] ?? "";
  if (next === ".") return !EMAIL_CHAR.test(text[end + 1] ?? "");
  return !EMAIL_CHAR.test(next) && next !== "@";
}

/**
 * Mentions written as plain text (an API writer without the composer): `@Full Name` or `@email` of
 * a member, case-insensitive, at a word boundary on both sides, the longest name winning where
 * several start alike (`@Ann Lee` over `@Ann`). A `@` inside a word (an address) starts none.
 */
export function plainTextMentions(text: string, candidates: MentionCandidate[]): string[] {
  if (!text.includes("@") || candidates.length === 0) return [];
  const forms = candidates
    .flatMap((c) => [
      { id: c.id, form: c.name.replace(/\s+/g, " ").trim().toLowerCase(), email: false },
      { id: c.id, form: c.email.trim().toLowerCase(), email: true },
    ])
    .filter((f) => f.form !== "")
    .sort((a, b) => b.form.length - a.form.length);
  // Line breaks and no-break spaces inside a name still spell it.
  const lower = text.replace(/\s+/g, " ").toLowerCase();
  const ids = new Set<string>();
  let at = lower.indexOf("@");
  for (let seen = 0; at >= 0 && seen < MAX_AT_SIGNS && ids.size < MAX_MENTIONS; seen++) {
    const before = at > 0 ? lower[at - 1]! : "";
    if (!before || !EMAIL_CHAR.test(before)) {
      const hit = forms.find((f) => {
        if (!lower.startsWith(f.form, at + 1)) return false;
        const end = at + 1 + f.form.length;
        return f.email ? addressEndsAt(lower, end) : !WORD.test(lower[end] ?? "") && lower[end] !== "@";
      });
      if (hit) ids.add(hit.id);
    }
    at = lower.indexOf("@", at + 1);
  }
  return [...ids];
}

/** Everyone a note mentions, by markup or as plain text (members read only when the text has a `@`). */
export async function mentionsOfNote(
  html: string,
  text: string,
  members: () => MentionCandidate[] | Promise<MentionCandidate[]>,
): Promise<string[]> {
  const ids = new Set(mentionedUserIds(html));
  if (text.includes("@")) for (const id of plainTextMentions(text, await members())) ids.add(id);
  return [...ids].slice(0, MAX_MENTIONS);
}
