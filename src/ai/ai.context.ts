import type { RequestContext } from "../auth/context";
import type { Deps } from "../deps";
import {
  getTicket,
  listMessages,
  recentTicketsOfContact,
  type MessageRow,
  type TicketRow,
} from "../tickets/tickets.public";
import { dataBlock } from "./ai.prompts";

/** A published knowledge-base article given to the model, and named in an answer's `sources`. */
export type GroundingSource = { article_id: string; title: string; url: string; text: string };

/**
 * Where drafts and answers find published articles: the help center provides its knowledge base's
 * search through the `ai.groundingSources` port.
 */
export type GroundingSources = (
  deps: Deps,
  input: { workspaceId: string; query: string; limit: number },
) => Promise<GroundingSource[]> | GroundingSource[];

/** Characters of thread text a prompt carries at most (the newest messages are kept). */
const THREAD_CHARS = 24_000;
const ARTICLE_CHARS = 3_000;

function speaker(message: MessageRow): string {
  if (message.kind === "note") return "internal note";
  if (message.direction === "inbound") return `customer${message.fromName ? ` (${message.fromName})` : ""}`;
  return "agent";
}

/** The thread as dated lines, newest kept when long; internal notes included only when asked. */
export function threadText(messages: MessageRow[], options: { notes: boolean }): string {
  const lines: string[] = [];
  let size = 0;
  for (const message of [...messages].reverse()) {
    if (message.kind === "note" && !options.notes) continue;
    const line = `[${message.createdAt.slice(0, 16)}] ${speaker(message)}: ${message.bodyText.trim()}`;
    if (size + line.length > THREAD_CHARS && lines.length) break;
    lines.push(line.slice(0, THREAD_CHARS));
    size += line.length;
  }
  return lines.reverse().join("\n\n");
}

export type TicketContext = {
  ticket: TicketRow;
  messages: MessageRow[];
  /** The ticket as data blocks for the user turn. */
  blocks: string[];
  sources: GroundingSource[];
};

/** What a draft, an answer or a summary reads: the thread, the contact's recent tickets, articles. */
export async function ticketContext(
  deps: Deps,
  ctx: RequestContext,
  ref: string,
  options: { notes: boolean; recent: boolean; grounding: GroundingSources | null; query?: string },
): Promise<TicketContext> {
  const ticket = await getTicket(deps.db, ctx, ref);
  const messages = await listMessages(deps.db, ctx, ticket.id);
  const blocks = [dataBlock("ticket", `Subject: ${ticket.subject}\n\n${threadText(messages, options)}`)];
  if (options.recent && ticket.contactId) {
    const recent = await recentTicketsOfContact(deps.db, ctx, ticket.contactId, ticket.id, 5);
    if (recent.length)
      blocks.push(
        dataBlock(
          "the customer's recent tickets",
          recent.map((t) => `#${t.number} ${t.subject} (${t.status}): ${t.lastMessagePreview}`).join("\n"),
        ),
      );
  }
  let sources: GroundingSource[] = [];
  if (options.grounding) {
    const lastCustomer = [...messages].reverse().find((m) => m.direction === "inbound" && m.kind === "reply");
    const query = options.query ?? `${ticket.subject}\n${lastCustomer?.bodyText ?? ""}`.slice(0, 1000);
    sources = await options.grounding(deps, { workspaceId: ctx.workspaceId, query, limit: 3 });
    for (const source of sources)
      blocks.push(
        dataBlock(`published article "${source.title}" (${source.url})`, source.text.slice(0, ARTICLE_CHARS)),
      );
  }
  return { ticket, messages, blocks, sources };
}

export const presentSources = (sources: GroundingSource[]) =>
  sources.map(({ article_id, title, url }) => ({ article_id, title, url }));
