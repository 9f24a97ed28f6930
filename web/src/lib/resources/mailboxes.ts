import type { Mailbox } from "../api/types";
import { listQuery } from "../api/queries";
import { defineResource } from "../realtime/invalidation";

export const mailboxesKeys = {
  list: ["mailboxes"] as const,
  /** Under the mailboxes' key, so a `mailbox.*` event refreshes the senders too. */
  senders: ["mailboxes", "senders"] as const,
};

export const mailboxesResource = defineResource({
  name: "mailboxes",
  keys: mailboxesKeys,
  events: [{ on: ["mailbox.*"], invalidate: () => [mailboxesKeys.list] }],
});

export const useMailboxes = listQuery<Mailbox>(mailboxesKeys.list, "/mailboxes");
