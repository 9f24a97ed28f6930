import type { ContactRef, Ticket, UserRef } from "../lib/api/types";

/**
 * Saved-reply placeholders, filled in by the web app when a saved reply is inserted into the
 * composer: the agent sees (and can edit) exactly what will be sent. A placeholder that is unknown
 * or has no value for this ticket stays in the text as written, and the composer will not send
 * text that still holds one (see `leftoverPlaceholders`). README.md lists them.
 */
export const PLACEHOLDERS = [
  "contact.name",
  "contact.first_name",
  "contact.last_name",
  "contact.email",
  "ticket.number",
  "ticket.subject",
  "agent.name",
  "agent.first_name",
  "agent.email",
  "workspace.name",
] as const;

export type PlaceholderContext = {
  ticket: Ticket;
  contact: ContactRef | null;
  agent: UserRef | null;
  workspace: { name: string } | null;
};

const TOKEN = /\{\{\s*([^{}]*?)\s*\}\}/g;

const words = (name: string | null | undefined) => (name ?? "").trim().split(/\s+/).filter(Boolean);

function placeholderValue(key: string, c: PlaceholderContext): string {
  switch (key) {
    case "contact.name":
      return c.contact?.name.trim() ?? "";
    case "contact.first_name":
      return words(c.contact?.name)[0] ?? "";
    // A one-word name has a first name only: the last name stays visible for the agent to fill in.
    case "contact.last_name":
      return words(c.contact?.name).slice(1).join(" ");
    case "contact.email":
      return c.contact?.email ?? "";
    case "ticket.number":
      return String(c.ticket.number);
    case "ticket.subject":
      return c.ticket.subject;
    case "agent.name":
      return c.agent?.name.trim() ?? "";
    case "agent.first_name":
      return words(c.agent?.name)[0] ?? "";
    case "agent.email":
      return c.agent?.email ?? "";
    case "workspace.name":
      return c.workspace?.name ?? "";
    default:
      return "";
  }
}

/** Replaces every known placeholder that has a value; leaves the rest exactly as written. */
export function renderPlaceholders(text: string, context: PlaceholderContext): string {
  return text.replace(TOKEN, (whole, key: string) => placeholderValue(key.toLowerCase(), context) || whole);
}

/** The placeholders still in `text`, each with why it was not filled in. */
export function leftoverPlaceholders(
  text: string,
  context: PlaceholderContext,
): Array<{ token: string; reason: "unknown" | "empty" | "not_filled" }> {
  const found = new Map<string, "unknown" | "empty" | "not_filled">();
  for (const [token, raw] of text.matchAll(TOKEN)) {
    const key = raw.toLowerCase();
    const known = (PLACEHOLDERS as readonly string[]).includes(key);
    found.set(token, !known ? "unknown" : placeholderValue(key, context) ? "not_filled" : "empty");
  }
  return [...found].map(([token, reason]) => ({ token, reason }));
}
