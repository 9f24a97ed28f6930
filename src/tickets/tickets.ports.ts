import type { Queryable } from "../db/database";
import { definePort } from "../lib/ports";

/** Takes the workspace's next ticket number (in the caller's transaction); undefined when there is no such workspace. */
export type TakeTicketNumber = (
  db: Queryable,
  workspaceId: string,
) => (number | undefined) | Promise<number | undefined>;

/**
 * The ticket-number counter sits on the workspace row (one write per new ticket, held by the
 * creating transaction so numbers stay gapless), and workspaces sit above tickets: they give it.
 */
export const ticketNumberCounter = definePort<TakeTicketNumber>("tickets.ticketNumberCounter");
