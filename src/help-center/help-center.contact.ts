import type { Queryable } from "../db/database";
import type { ContactLink, HelpCenter } from "./help-center.service";

/** How a workspace can be reached from its help center: its chat widget's key when the widget runs there, its default mailbox. */
export type ContactChannels = { widgetKey: string | null; email: string | null };

/** Provided by the widget (the widget and mailboxes are features the help center may not import). */
export type ContactChannelsOf = (
  db: Queryable,
  workspaceId: string,
  baseUrl: string,
) => ContactChannels | Promise<ContactChannels>;

/** The contact form at /help/{slug}/contact, provided by the portal (which the help center may not import). */
export type ContactForm = (request: Request, center: Pick<HelpCenter, "slug" | "url">) => Promise<Response>;

/**
 * Where every page's "Contact us" leads: the chat widget where it runs on the help center (the page
 * then loads it and `#chat` opens it), else the contact form at /help/{slug}/contact once the
 * workspace has a mailbox to answer from, else nowhere.
 */
export function contactLinkOf(center: Pick<HelpCenter, "url">, channels: ContactChannels): ContactLink | null {
  if (channels.widgetKey) return { href: `${center.url}#chat`, widgetKey: channels.widgetKey };
  // The form makes a ticket and mails its confirmation from this mailbox, so it stands in for the address.
  if (channels.email) return { href: `${center.url}/contact`, widgetKey: null };
  return null;
}
