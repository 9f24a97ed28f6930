import { visitorCaller, visitorSessions } from "../auth/auth.ports";
import { contactChannels, publishedArticlesFor } from "../help-center/help-center.public";
import { provide } from "../lib/ports";
import { firstMailboxOf } from "../mailboxes/mailboxes.public";
import { defineModule } from "../module";
import { visitorViewOf } from "../realtime/realtime.ports";
import { installWidgetProbe } from "../onboarding/onboarding.public";
import { articlesFor } from "../widget-answers/widget-answers.public";
import { chatReplyMailJob, chatReplyMailOnMessage } from "./widget.chat-mail";
import { visitorIdempotencyCaller } from "./widget.cors";
import { chatEmailConfirmPage } from "./widget.email-confirm.page";
import { widgetScriptPage } from "./widget.page";
import { widgetRoutes } from "./widget.routes";
import { visitorView } from "./widget.gateway";
import { visitorResolver, widgetHasVisitors, widgetKeyOnSite } from "./widget.sessions";
import { sweepVisitorUploadsJob } from "./widget.uploads";

export const widgetModule = defineModule({
  name: "widget",
  routes: (deps) => [widgetRoutes(deps)],
  pages: (deps) => [...widgetScriptPage(deps), chatEmailConfirmPage(deps)],
  jobs: [chatReplyMailJob, sweepVisitorUploadsJob],
  consumers: [chatReplyMailOnMessage],
  provides: [
    provide(visitorSessions, visitorResolver),
    provide(visitorCaller, visitorIdempotencyCaller),
    provide(visitorViewOf, visitorView),
    /**
     * Where the help center's "Contact us" leads: the chat widget when it is installed (on, allowed on
     * the help center's own origin, and has had visitors), else the default (first) mailbox's address.
     */
    provide(contactChannels, async (db, workspaceId, baseUrl) => ({
      widgetKey: await widgetKeyOnSite(db, workspaceId, new URL(baseUrl).origin),
      email: (await firstMailboxOf(db, workspaceId))?.email ?? null,
    })),
    // The chat widget's AI answers from the published articles the visitor's question finds.
    provide(articlesFor, async (deps, workspaceId, question) =>
      (await publishedArticlesFor(deps, workspaceId, question, 5)).map(({ title, url, text }) => ({
        title,
        url,
        text,
      })),
    ),
    provide(installWidgetProbe, async (db, ctx) => await widgetHasVisitors(db, ctx.workspaceId)),
  ],
});
