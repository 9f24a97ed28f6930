import { groundingSources } from "../ai/ai.public";
import { provide } from "../lib/ports";
import { defineModule } from "../module";
import { contactChannels, contactForm, publishedArticlesFor } from "./help-center.public";
import { helpCenterPages } from "./help-center.pages";
import { helpCenterPreviewRoutes } from "./help-center.preview.routes";
import { helpCenterRoutes } from "./help-center.routes";

/** The help center; its pages' "Contact us" come through its ports (the widget, the default mailbox, the portal's form). */
export const helpCenterModule = defineModule({
  name: "help-center",
  routes: (deps) => [helpCenterRoutes(deps), helpCenterPreviewRoutes(deps)],
  pages: (deps) => helpCenterPages(deps, deps.ports.get(contactChannels), deps.ports.get(contactForm)(deps)),
  ports: [contactChannels, contactForm],
  provides: [
    // Drafts and answers ground on the workspace's published articles, linked on its help center.
    provide(
      groundingSources,
      async (deps, { workspaceId, query, limit }) => await publishedArticlesFor(deps, workspaceId, query, limit),
    ),
  ],
});
