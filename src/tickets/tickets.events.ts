import { z } from "zod";
import { defineEvent } from "../events/define";
import { MessageSchema } from "./messages.schemas";
import { ActivitySchema, TicketSchema } from "./tickets.schemas";

const tickets = { readScope: "tickets:read" } as const;

export const ticketCreated = defineEvent("ticket.created", z.object({ ticket: TicketSchema }), {
  ...tickets,
  description: "A ticket was created (by an agent, an API key, inbound mail or a merge).",
});
export const ticketUpdated = defineEvent(
  "ticket.updated",
  z.object({ ticket: TicketSchema, changes: z.array(z.string()).describe("the names of the changed fields") }),
  {
    ...tickets,
    description: "A ticket changed; also sent to the new assignee's user topic when the assignee changes.",
  },
);
export const ticketDeleted = defineEvent("ticket.deleted", z.object({ ticket_id: z.string() }), {
  ...tickets,
  description: "A ticket was deleted.",
});
export const messageCreated = defineEvent(
  "message.created",
  z.object({ ticket_id: z.string(), message: MessageSchema }),
  {
    ...tickets,
    description:
      "A message was added to a ticket. A reply on a chat ticket is `public` and also goes to the contact's topic; notes and email replies are `agents`.",
  },
);
export const messageUpdated = defineEvent(
  "message.updated",
  z.object({ ticket_id: z.string(), message: MessageSchema }),
  { ...tickets, description: "A message's delivery status changed." },
);
export const activityCreated = defineEvent(
  "activity.created",
  z.object({ ticket_id: z.string(), activity: ActivitySchema }),
  { ...tickets, description: "An entry was added to a ticket's timeline." },
);

export const ticketEvents = [
  ticketCreated,
  ticketUpdated,
  ticketDeleted,
  messageCreated,
  messageUpdated,
  activityCreated,
] as const;
