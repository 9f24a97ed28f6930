import { defineModule } from "../module";
import { chatReplyMailJob, chatReplyMailOnMessage } from "./widget.chat-mail";
import { chatEmailConfirmPage } from "./widget.email-confirm.page";
import { widgetScriptPage } from "./widget.page";
import { widgetRoutes } from "./widget.routes";
import { sweepVisitorUploadsJob } from "./widget.uploads";

export const widgetModule = defineModule({
  name: "widget",
  routes: (deps) => [widgetRoutes(deps)],
  pages: (deps) => [...widgetScriptPage(deps), chatEmailConfirmPage(deps)],
  jobs: [chatReplyMailJob, sweepVisitorUploadsJob],
  consumers: [chatReplyMailOnMessage],
});
