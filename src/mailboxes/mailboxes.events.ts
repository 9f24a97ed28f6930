import { z } from "zod";
import { defineEvent } from "../events/define";
import { MailboxSchema } from "./mailboxes.schemas";

const options = { readScope: "settings:read" } as const;

export const mailboxCreated = defineEvent("mailbox.created", z.object({ mailbox: MailboxSchema }), {
  ...options,
  description: "A mailbox was created.",
});
export const mailboxUpdated = defineEvent("mailbox.updated", z.object({ mailbox: MailboxSchema }), {
  ...options,
  description: "A mailbox changed.",
});
export const mailboxDeleted = defineEvent("mailbox.deleted", z.object({ mailbox_id: z.string() }), {
  ...options,
  description: "A mailbox was deleted.",
});
export const mailboxEvents = [mailboxCreated, mailboxUpdated, mailboxDeleted] as const;
