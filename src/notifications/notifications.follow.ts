import type { Deps } from "../deps";
import { defineConsumer } from "../events/consumers";
import { memberNamesOf } from "../members/members.public";
import { addFollowers } from "../tickets/tickets.public";
import { workspaceSettingsOf } from "../workspaces/workspaces.public";
import { mentionsOfNote } from "./notifications.mentions";

type NoteData = {
  ticket_id: string;
  message: { kind: "reply" | "note"; body_html: string; body_text: string; author: { user: { id: string } | null } };
};

/**
 * `settings.follow_on_mention` (default off): the members a note mentions, its author aside, start
 * following its ticket (those who may see it; the ticket's follower cap holds), so the rest of the
 * conversation reaches them as it reaches the assignee.
 */
export const followOnMention = defineConsumer<Deps>({
  name: "notifications.follow-on-mention",
  types: ["message.created"],
  handle(tx, event, { deps }) {
    const { ticket_id, message } = event.data as NoteData;
    if (message.kind !== "note") return;
    if (workspaceSettingsOf(tx, event.workspace_id)?.settings?.follow_on_mention !== true) return;
    const author = message.author.user?.id ?? null;
    const mentioned = mentionsOfNote(message.body_html, message.body_text, () =>
      memberNamesOf(tx, event.workspace_id),
    ).filter((id) => id !== author);
    if (mentioned.length === 0) return;
    addFollowers(tx, event.workspace_id, ticket_id, mentioned, deps.clock.now().toISOString());
  },
});
