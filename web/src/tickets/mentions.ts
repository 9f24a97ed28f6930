/** "@ann" typed at the start of a line or after a space, right before the caret: a mention being written. */
export const MENTION_TOKEN = /(^|\s)@([\p{L}\p{N}_.\-']*)$/u;

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Turns each "@Name" the agent picked from the suggestions into the mention markup the server
 * reads (`<span data-mention="<user id>">@Name</span>`), in the note's HTML (textToHtml's output).
 * One pass over all names, longest first, so "@Ann Lee" is not cut short by a pick named "Ann".
 */
export function withMentions(html: string, picked: Record<string, string>): string {
  const byShown = new Map(Object.entries(picked).map(([name, id]) => [escapeHtml(`@${name}`), id]));
  if (!byShown.size) return html;
  const names = [...byShown.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(`(^|[\\s>(])(${names.join("|")})(?![\\p{L}\\p{N}_])`, "gu");
  return html.replace(
    pattern,
    (_, before: string, shown: string) =>
      `${before}<span data-mention="${escapeHtml(byShown.get(shown)!)}">${shown}</span>`,
  );
}
