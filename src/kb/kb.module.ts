import { provide } from "../lib/ports";
import { defineModule } from "../module";
import { publishArticleProbe } from "../onboarding/onboarding.public";
import { kbEvents } from "./kb.events";
import { featuredArticles } from "./kb.public";
import { kbArticlesRoutes, kbCollectionsRoutes } from "./kb.routes";
import { kbTranslationsRoutes } from "./kb.translations.routes";

export const kbModule = defineModule({
  name: "kb",
  events: kbEvents,
  routes: (deps) => [kbCollectionsRoutes(deps), kbArticlesRoutes(deps), kbTranslationsRoutes(deps)],
  provides: [
    provide(publishArticleProbe, async (db, ctx) => (await featuredArticles(db, ctx.workspaceId, 1)).length > 0),
  ],
});
