/**
 * The mention markup: the note composer inserts `<span data-mention="<user id>">@Name</span>`. The
 * HTML sanitizer keeps `data-mention` on spans only when it looks like an id (src/lib/sanitize.ts),
 * so anything else a writer sends is dropped before storage. At most 20 people per note.
 */
const MENTION = /<span\b[^>]*\bdata-mention="([0-9A-Za-z-]{1,64})"/g;
const MAX_MENTIONS = 20;

export function mentionedUserIds(html: string): string[] {
  const ids = new Set<string>();
  for (const match of html.matchAll(MENTION)) {
    ids.add(match[1]!);
    if (ids.size >= MAX_MENTIONS) break;
  }
  return [...ids];
}
