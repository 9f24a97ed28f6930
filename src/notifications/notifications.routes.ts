import { Elysia } from "elysia";
import type { Deps } from "../deps";
import {
  MarkReadAnswer,
  MarkReadBody,
  NotificationListQuery,
  NotificationPage,
  NotificationPreferences,
} from "./notifications.schemas";
import { getPreferences, listNotifications, markRead, setPreferences } from "./notifications.service";

/** A person's own notifications: any member, never an API key (keys have no person to tell). */
const own = { role: "viewer", keys: false } as const;

export function notificationsRoutes(deps: Deps) {
  return new Elysia({ prefix: "/notifications", tags: ["notifications"] })
    .use(deps.guard)
    .get("/", async ({ ctx, query }) => await listNotifications(deps.db, ctx, query), {
      access: own,
      query: NotificationListQuery,
      response: { 200: NotificationPage },
      detail: {
        summary: "The caller's notifications in this workspace, newest first",
        description:
          "Keyset paged (`limit`, `cursor`); `unread=true` keeps those not read. `unread_count` is the caller's unread total " +
          "(the bell's badge). Produced: `assigned` (an assignee change someone else made, automations and auto-assignment " +
          "included, or a ticket someone else created already assigned to you), " +
          '`mentioned` (an @mention in a note: `<span data-mention="<user id>">@Name</span>`, or a member\'s `@Full Name` ' +
          "or `@email` written as plain text, case-insensitive, the longest name winning, at most 20 people per note), " +
          "`note_added` (a note, to the assignee and the followers, never its author nor those it mentions, who get " +
          "`mentioned`), `customer_replied` (to the assignee), and the types other features send (`sla_breached`, " +
          "`ai_handoff`, AI and billing notices). A ticket's followers get every ticket notice its assignee gets except " +
          "`assigned`; one event tells at most 60 people about one ticket (the assignee, up to 50 followers, admins). " +
          "Each also arrives live as `notification.created`, a personal event: only its person's sockets and replays see it " +
          "in full, everyone else gets the `event.hidden` stand-in. API keys answer 403.",
      },
    })
    .post("/read", async ({ ctx, body }) => await markRead(ctx, body, deps), {
      access: own,
      body: MarkReadBody,
      response: { 200: MarkReadAnswer },
      detail: {
        summary: "Mark notifications read: `{ ids }` or `{ all: true }`",
        description:
          "Ids that are not the caller's (another person's, another workspace's, unknown) are ignored; `updated` counts " +
          "those that changed from unread to read. Answers the unread count left.",
      },
    })
    .get("/preferences", async ({ ctx }) => await getPreferences(deps.db, ctx), {
      access: own,
      response: { 200: NotificationPreferences },
      detail: { summary: "The caller's notification email preference in this workspace (default `immediately`)" },
    })
    .put("/preferences", async ({ ctx, body }) => await setPreferences(ctx, body, deps), {
      access: own,
      body: NotificationPreferences,
      response: { 200: NotificationPreferences },
      detail: {
        summary: "Set the notification email preference: immediately, digest (daily, 08:00 UTC) or off",
        description:
          "Emails go through system mail (DESK_SMTP_URL, else the outbox folder) to the person's account email.",
      },
    });
}
