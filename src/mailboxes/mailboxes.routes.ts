import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { IdParams, PageQuery, errorResponses } from "../http/schemas";
import { testMailboxConnection } from "./mailboxes.check";
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

const settingsAccess = { role: "admin", scopes: ["settings:read", "settings:write"] } as const;

export function mailboxesRoutes(deps: Deps) {
  return new Elysia({ prefix: "/mailboxes", tags: ["mailboxes"] })
    .use(deps.guard)
    .get("/", ({ ctx, query }) => listMailboxes(deps.db, ctx, query, deps.config.smtpRelayUrl !== null), {
      access: settingsAccess,
      query: PageQuery,
      response: { 200: MailboxListSchema, ...errorResponses },
      detail: { summary: "List mailboxes" },
    })
    .post(
      "/",
      ({ ctx, body, set }) => {
        set.status = 201;
        return presentMailbox(createMailbox(ctx, body, deps), deps.config.smtpRelayUrl !== null);
      },
      {
        access: settingsAccess,
        body: CreateMailboxBody,
        response: { 201: MailboxSchema, ...errorResponses },
        detail: { summary: "Create a mailbox; password and smtp_password are write-only" },
      },
    )
    .get(
      "/:id",
      ({ ctx, params }) => presentMailbox(getMailbox(deps.db, ctx, params.id), deps.config.smtpRelayUrl !== null),
      {
        access: settingsAccess,
        params: IdParams,
        response: { 200: MailboxSchema, ...errorResponses },
        detail: { summary: "Get a mailbox" },
      },
    )
    .patch(
      "/:id",
      ({ ctx, params, body }) =>
        presentMailbox(updateMailbox(ctx, params.id, body, deps), deps.config.smtpRelayUrl !== null),
      {
        access: settingsAccess,
        params: IdParams,
        body: UpdateMailboxBody,
        response: { 200: MailboxSchema, ...errorResponses },
        detail: { summary: "Update a mailbox; trusted_form_senders replaces the stored list" },
      },
    )
    .delete(
      "/:id",
      ({ ctx, params, set }) => {
        deleteMailbox(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      { access: settingsAccess, params: IdParams, detail: { summary: "Delete a mailbox" } },
    )
    .post("/:id/test", ({ ctx, params }) => testMailboxConnection(ctx, params.id, deps), {
      access: settingsAccess,
      params: IdParams,
      response: { 200: MailboxTestResultSchema, ...errorResponses },
      detail: { summary: "Log in to the mailbox's IMAP and SMTP servers and report the outcome" },
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
