import type { Deps } from "../deps";
import { type ConsumerContext, defineConsumer } from "../events/consumers";
import { memberNamesOf } from "../members/members.public";
import { addFollowers, messageCreated } from "../tickets/tickets.public";
import { workspaceSettingsOf } from "../workspaces/workspaces.public";
import { mentionsOfNote } from "./notifications.mentions";

/**
 * `settings.follow_on_mention` (default off): the members a note mentions, its author aside, start
 * following its ticket (those who may see it; the ticket's follower cap holds), so the rest of the
 * conversation reaches them as it reaches the assignee.
 */
export const followOnMention = defineConsumer({
  name: "notifications.follow-on-mention",
  events: [messageCreated],
  async handle(tx, event, { deps }: ConsumerContext<Deps>) {
    const { ticket_id, message } = event.data;
    if (message.kind !== "note") return;
    if ((await workspaceSettingsOf(tx, event.workspace_id))?.settings?.follow_on_mention !== true) return;
    const author = message.author.user?.id ?? null;
    const mentioned = (
      await mentionsOfNote(
        message.body_html,
        message.body_text,
        async () => await memberNamesOf(tx, event.workspace_id),
      )
    ).filter((id) => id !== author);
    if (mentioned.length === 0) return;
    await addFollowers(tx, event.workspace_id, ticket_id, mentioned, deps.clock.now().toISOString());
  },
});
