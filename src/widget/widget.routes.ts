import { Elysia } from "elysia";
import { IdParams } from "../http/schemas";
import type { Deps } from "../deps";
import { searchHelpCenter } from "../help-center/help-center.public";
import { spendSessionBudget, WIDGET_LIMITS } from "./widget.limits";
import {
  ArticlesQuery,
  ConfigQuery,
  SessionBody,
  SettingsPatch,
  VisitorInfoSchema,
  WidgetArticlesSchema,
  WidgetConfigSchema,
  WidgetSessionSchema,
  WidgetSettingsSchema,
} from "./widget.schemas";
import { latestVisitOf, presentWidgetConfig, sessionAnswer, startVisitorSession, widgetOfKey } from "./widget.sessions";
import { getWidgetSettings, originAllowed, updateWidgetSettings } from "./widget.settings";
import { allowOrigin, type CorsSet, corsOnArrival, settingsOfKey } from "./widget.cors";
import { widgetVisitorRoutes } from "./widget.visitor.routes";

/** Articles a widget search shows, and searches per client address (a search ranks matches; pages are cheap). */
const WIDGET_ARTICLE_RESULTS = 5;
const WIDGET_ARTICLE_SEARCHES = { limit: 60, windowMs: 60_000 };

/** Paths a page on another site calls (everything under /v1/widget/ but the admins' settings and the agents' visitor card). */
const crossSite = (path: string) =>
  path.startsWith("/v1/widget/") && !path.startsWith("/v1/widget/settings") && !path.startsWith("/v1/widget/visitors/");

const CORS_TEXT =
  "CORS: answers carry Access-Control-Allow-Origin for the calling page's origin when the workspace's `allowed_origins` " +
  "is empty or lists it; for any other origin the header is left out, so browsers keep the answer from the page. " +
  "Errors follow the same rule, and carry no such header while the workspace is unknown (a bad visitor credential, " +
  "an unknown key). Visitor writes accept Idempotency-Key, scoped to the visitor session.";

/** What any page may call with a public widget key: the widget's look, article search, a visitor session. */
function widgetPublicRoutes(deps: Deps) {
  return new Elysia({ tags: ["widget"] })
    .use(deps.guard)
    .get(
      "/config",
      async ({ query, request, set }) => {
        const { workspace, settings } = await widgetOfKey(deps, query.key);
        allowOrigin(set, request, originAllowed(settings, request.headers.get("origin")));
        set.headers["cache-control"] = "public, max-age=60";
        return presentWidgetConfig(workspace, settings, deps, query.locale);
      },
      {
        public: true,
        query: ConfigQuery,
        response: { 200: WidgetConfigSchema },
        detail: {
          summary: "The widget's look and rules for a public widget key (404 for an unknown key or a disabled widget)",
          description: `No credentials. ${CORS_TEXT}`,
        },
      },
    )
    .get(
      "/articles",
      async ({ query, set }) => {
        const { workspace } = await widgetOfKey(deps, query.key);
        set.headers["cache-control"] = "no-store";
        return {
          data: await searchHelpCenter(
            deps.db,
            deps.config.baseUrl,
            workspace,
            query.q,
            WIDGET_ARTICLE_RESULTS,
            query.locale,
          ),
        };
      },
      {
        public: WIDGET_ARTICLE_SEARCHES,
        query: ArticlesQuery,
        response: { 200: WidgetArticlesSchema },
        detail: {
          summary: "Search the help center's published articles from the widget (every visitor, before any chat)",
          description:
            `No credentials. Up to ${WIDGET_ARTICLE_RESULTS} published articles matching \`q\` (up to 200 characters), ` +
            "each with its title, excerpt and help-center address (in `locale`, a BCP 47 tag, where an article has a published translation into it); empty while the help center is off. 404 for an unknown " +
            `key or a disabled widget. ${WIDGET_ARTICLE_SEARCHES.limit} searches a minute per client address (429 past them). ${CORS_TEXT}`,
        },
      },
    )
    .post(
      "/session",
      async ({ body, request, set }) => {
        // The key is known from here: a refusal below (429, 403, 422) is readable by a listed page only.
        const settings = await settingsOfKey(deps.db, body.key);
        allowOrigin(set, request, settings !== null && originAllowed(settings, request.headers.get("origin")));
        await spendSessionBudget(deps, request);
        const started = await startVisitorSession(
          body,
          request.headers.get("origin"),
          deps,
          request.headers.get("user-agent"),
        );
        set.headers["cache-control"] = "no-store";
        return sessionAnswer(started, deps);
      },
      {
        public: true,
        body: SessionBody,
        response: { 200: WidgetSessionSchema },
        detail: {
          summary: "Start or resume a visitor session",
          description:
            "No credentials. A `visitor_token` of a live session of this workspace resumes it (same token, same contact; " +
            "email and name fill what the contact lacks); an unknown or expired one starts a new session. " +
            "Verified visitors send `user_id` and `user_hash` (hex HMAC-SHA256 of user_id keyed with the widget secret): " +
            "they become the contact with that external_id, created if needed, and may send `avatar_url` (their picture on " +
            "the site, copied server-side as the contact's `widget` picture unless an agent uploaded one; 422 at body.avatar_url " +
            "without a verified identity or for an address the server will not fetch); a wrong hash answers 401 " +
            "`identity_unverified` and stores nothing. Unverified visitors always get a contact of their own: an email " +
            "another contact holds is kept on the session only, so nobody reaches another person's conversations by " +
            "typing their address. `require_email` answers 422 at body.email until an email is given. A page whose " +
            `origin is not in allowed_origins gets 403. Visitor sessions last ${30} days after their last use. ` +
            `Sessions per client address: ${WIDGET_LIMITS.sessionsPerAddress} a minute. ` +
            "The widget also sends `page_url` (http(s), up to 2,000 characters) and `time_zone` (an IANA name, up to 64); " +
            "with the User-Agent (kept to 300 characters) they are stored on the session as the visitor's own word and shown " +
            "to agents as text (GET /v1/widget/visitors/{contact_id}). A visitor with neither a name nor an email of their own " +
            `is named "Visitor from <page host>" until they give a name. ${CORS_TEXT}`,
        },
      },
    );
}

/** What agents and admins call: a contact's last visit, the widget's settings. */
function widgetStaffRoutes(deps: Deps) {
  return new Elysia({ tags: ["widget"] })
    .use(deps.guard)
    .get("/visitors/:id", async ({ ctx, params }) => await latestVisitOf(deps.db, ctx.workspaceId, params.id), {
      access: { role: "viewer", scopes: ["contacts:read"] },
      params: IdParams,
      response: { 200: VisitorInfoSchema },
      detail: {
        summary: "What the chat widget last reported about a contact's visit (for the customer card)",
        description:
          "By contact id: the page URL and its host, the browser (summarised from the User-Agent), the time zone and when " +
          "the visitor was last seen, from the contact's newest visitor session. All of it is the visitor's own word. " +
          "404 when the contact never used the widget, or belongs to another workspace.",
      },
    })
    .get("/settings", async ({ ctx }) => await getWidgetSettings(ctx, deps), {
      access: { role: "admin", scopes: ["settings:read"] },
      response: { 200: WidgetSettingsSchema },
      detail: {
        summary: "The chat widget's settings and embed snippet",
        description:
          "The widget secret for identity verification is rotated with POST /v1/workspace/widget-secret/rotate.",
      },
    })
    .patch("/settings", async ({ ctx, body }) => await updateWidgetSettings(ctx, body, deps), {
      access: { role: "admin", scopes: ["settings:write"] },
      body: SettingsPatch,
      response: { 200: WidgetSettingsSchema },
      detail: {
        summary: "Change the chat widget's settings",
        description:
          "`allowed_origins`: sites whose pages may run the widget (`https://shop.example`, `https://*.example.com`); " +
          "empty allows any. Enforced on POST /v1/widget/session (403) and by CORS on every widget route. " +
          "`enabled: false` makes GET /v1/widget/config answer 404 and ends visitor sessions' access (401). " +
          "`reply_mailbox_id`: the mailbox an agent's chat reply is mailed from when the visitor left an email and has not " +
          "seen it in the widget DESK_CHAT_MAIL_DELAY (default 2 minutes) after it was sent (unseen replies batched into one mail, threaded on the ticket, " +
          "so the visitor's answer by email comes back into the chat); null: the workspace's first mailbox; no mailbox, no mail. " +
          "Another workspace's mailbox answers 422.",
      },
    });
}

export function widgetRoutes(deps: Deps) {
  const corsOf = corsOnArrival(deps);
  // Pages on other sites call these routes: every answer (errors included) names the page's origin
  // when the workspace is known and lists its site (src/widget/widget.cors.ts), except a body that is
  // not JSON at all (the widget never sends one), refused before this hook. Decided by a transform
  // hook local to the widget's routes, before their validation. Not onRequest: that hook runs for
  // every request of the desk, and an awaiting one makes every request await it.
  const arrive = async ({ request, set }: { request: Request; set: CorsSet }): Promise<void> => {
    const origin = request.headers.get("origin");
    if (!origin) return;
    const url = new URL(request.url);
    if (!crossSite(url.pathname)) return;
    set.headers.vary = "Origin";
    await corsOf(request, url, set);
    set.headers["access-control-expose-headers"] = "Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset";
  };
  return new Elysia({ prefix: "/widget", tags: ["widget"] })
    .onTransform(arrive)
    .options(
      "/*",
      ({ set, request }) => {
        if (!crossSite(new URL(request.url).pathname)) {
          set.status = 404;
          return null;
        }
        set.headers["access-control-allow-methods"] = "GET, POST";
        set.headers["access-control-allow-headers"] = "Authorization, Content-Type, Idempotency-Key";
        set.headers["access-control-max-age"] = "600";
        set.status = 204;
        return null;
      },
      { detail: { hide: true } },
    )
    .use(deps.guard)
    .use(widgetPublicRoutes(deps))
    .use(widgetVisitorRoutes(deps))
    .use(widgetStaffRoutes(deps));
}
