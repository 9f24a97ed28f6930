import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { IdParams, PageQuery, errorResponses } from "../http/schemas";
import { testMailboxConnection } from "./mailboxes.check";
import { assertMailHostsAllowed } from "./mailboxes.connection";
import { completeOAuth, startOAuth } from "./mailboxes.oauth";
import { presentMailbox } from "./mailboxes.present";
import {
  CreateMailboxBody,
  MailboxListSchema,
  MailboxSchema,
  MailboxTestResultSchema,
  OAuthCallbackQuery,
  OAuthProviderParams,
  OAuthStartBody,
  OAuthStartResult,
  UpdateMailboxBody,
} from "./mailboxes.schemas";
import { createMailbox, deleteMailbox, getMailbox, listMailboxes, updateMailbox } from "./mailboxes.service";

const MAIL_HOSTS_RULE =
  "IMAP and SMTP hosts pass the same guard as webhooks, when saved and again before every connection: a private, loopback or link-local address (or a name resolving to one) answers 422 at `body.config.imap_host` / `body.config.smtp_host` unless DESK_ALLOWED_PRIVATE_HOSTS lists it.";

const MAILBOX_EDIT_RULE =
  "The mailbox changes in place: its forwarding address and tickets stay. `config` is merged into the stored settings; `password` and `smtp_password` are write-only and an omitted one keeps the stored secret. `signature_html` (sanitized) goes under every reply sent from the mailbox, once, above the quoted message, in the HTML and the text part; auto-replies are sent without it.";

const settingsAccess = { role: "admin", scopes: ["settings:read", "settings:write"] } as const;

export function mailboxesRoutes(deps: Deps) {
  const relayOn = deps.config.smtpRelayUrl !== null;
  return new Elysia({ prefix: "/mailboxes", tags: ["mailboxes"] })
    .use(deps.guard)
    .get("/", ({ ctx, query }) => listMailboxes(deps.db, ctx, query, relayOn), {
      access: settingsAccess,
      query: PageQuery,
      response: { 200: MailboxListSchema, ...errorResponses },
      detail: { summary: "List mailboxes" },
    })
    .post(
      "/",
      async ({ ctx, body, set }) => {
        await assertMailHostsAllowed(body.config, deps);
        set.status = 201;
        return presentMailbox(await createMailbox(ctx, body, deps), relayOn);
      },
      {
        access: settingsAccess,
        body: CreateMailboxBody,
        response: { 201: MailboxSchema, ...errorResponses },
        detail: {
          summary: "Create a mailbox; password and smtp_password are write-only",
          description: MAIL_HOSTS_RULE,
        },
      },
    )
    .get("/:id", async ({ ctx, params }) => presentMailbox(await getMailbox(deps.db, ctx, params.id), relayOn), {
      access: settingsAccess,
      params: IdParams,
      response: { 200: MailboxSchema, ...errorResponses },
      detail: { summary: "Get a mailbox" },
    })
    .patch(
      "/:id",
      async ({ ctx, params, body }) => {
        await assertMailHostsAllowed(body.config, deps);
        return presentMailbox(await updateMailbox(ctx, params.id, body, deps), relayOn);
      },
      {
        access: settingsAccess,
        params: IdParams,
        body: UpdateMailboxBody,
        response: { 200: MailboxSchema, ...errorResponses },
        detail: {
          summary: "Update a mailbox; trusted_form_senders replaces the stored list",
          description: `${MAIL_HOSTS_RULE} ${MAILBOX_EDIT_RULE}`,
        },
      },
    )
    .delete(
      "/:id",
      async ({ ctx, params, set }) => {
        await deleteMailbox(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      { access: settingsAccess, params: IdParams, detail: { summary: "Delete a mailbox" } },
    )
    .post("/:id/test", ({ ctx, params }) => testMailboxConnection(ctx, params.id, deps), {
      access: settingsAccess,
      params: IdParams,
      response: { 200: MailboxTestResultSchema, ...errorResponses },
      detail: {
        summary: "Log in to the mailbox's IMAP and SMTP servers and report the outcome",
        description:
          "A failure answers a `category` (`host_not_allowed`, `host_not_found`, `connection_refused`, `timeout`, `tls_failed`, `auth_failed`, `connection_closed`, `protocol_error`, `not_configured`) and a fixed sentence for it, never the server's own text. " +
          MAIL_HOSTS_RULE,
      },
    })
    .post("/oauth/:provider/start", ({ ctx, params, body }) => startOAuth(ctx, params.provider, body, deps), {
      access: settingsAccess,
      params: OAuthProviderParams,
      body: OAuthStartBody,
      response: { 200: OAuthStartResult, ...errorResponses },
      detail: {
        summary: "Start connecting a provider mailbox: answers the URL to send the browser to (PKCE, state token)",
      },
    })
    .get(
      "/oauth/:provider/callback",
      async ({ params, query, redirect }) => redirect(await completeOAuth(params.provider, query, deps), 302),
      {
        params: OAuthProviderParams,
        query: OAuthCallbackQuery,
        detail: {
          summary: "The provider's redirect back; stores the tokens and redirects to the settings page",
          responses: {
            302: { description: "Redirect to the mailbox settings page" },
            404: { description: "Unknown provider" },
            422: { description: "Invalid state or code" },
          },
        },
      },
    );
}
