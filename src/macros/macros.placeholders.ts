import type { FieldError } from "../lib/errors";
import { escapeHtml } from "../lib/sanitize";

/**
 * The saved-reply placeholders (web/src/tickets/placeholders.ts fills them in the composer; README
 * lists them). A macro's reply or note is filled on the server when it is applied, so a name from
 * the customer is escaped into the HTML, never read as markup.
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

export type PlaceholderValues = {
  contact: { name: string; email: string | null } | null;
  ticket: { number: number; subject: string };
  agent: { name: string; email: string } | null;
  workspace: { name: string } | null;
};

const TOKEN = /\{\{\s*([^{}]*?)\s*\}\}/g;
const words = (name: string | null | undefined) => (name ?? "").trim().split(/\s+/).filter(Boolean);

function placeholderValue(key: string, v: PlaceholderValues): string {
  switch (key) {
    case "contact.name":
      return v.contact?.name.trim() ?? "";
    case "contact.first_name":
      return words(v.contact?.name)[0] ?? "";
    case "contact.last_name":
      return words(v.contact?.name).slice(1).join(" ");
    case "contact.email":
      return v.contact?.email ?? "";
    case "ticket.number":
      return String(v.ticket.number);
    case "ticket.subject":
      return v.ticket.subject;
    case "agent.name":
      return v.agent?.name.trim() ?? "";
    case "agent.first_name":
      return words(v.agent?.name)[0] ?? "";
    case "agent.email":
      return v.agent?.email ?? "";
    case "workspace.name":
      return v.workspace?.name ?? "";
    default:
      return "";
  }
}

/** Save-time check: every `{{ … }}` in a reply or note names a known placeholder; `{{` is always closed. */
export function checkPlaceholders(html: string, at: string, errors: FieldError[]): void {
  for (const [, raw] of html.matchAll(TOKEN)) {
    const key = raw?.toLowerCase() ?? "";
    if (!(PLACEHOLDERS as readonly string[]).includes(key)) {
      errors.push({
        location: at,
        message: `unknown placeholder {{${key.slice(0, 40)}}}; known: ${PLACEHOLDERS.join(", ")}`,
      });
      return;
    }
  }
  if (html.replace(TOKEN, "").includes("{{"))
    errors.push({ location: at, message: "a placeholder opened with {{ is closed with }}" });
}

/**
 * Fills every placeholder (values escaped). The ones without a value for this ticket are answered
 * as a list, so the caller refuses rather than mail a customer "Hello {{contact.first_name}}".
 */
export function fillPlaceholders(html: string, values: PlaceholderValues): { html: string; empty: string[] } {
  const empty: string[] = [];
  const filled = html.replace(TOKEN, (whole, raw: string) => {
    const value = placeholderValue(raw.toLowerCase(), values);
    if (value === "") {
      empty.push(whole);
      return whole;
    }
    return escapeHtml(value);
  });
  return { html: filled, empty };
}
