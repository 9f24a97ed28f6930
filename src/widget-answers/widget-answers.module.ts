import { defineModule } from "../module";
import { type ArticlesForQuestion, widgetAnswersBackground } from "./widget-answers.jobs";

/**
 * Widget answers (src/widget-answers): the AI agent answering chat visitors. Without an article
 * source (the knowledge base's published search, wired in src/registry.ts) it plugs in nothing:
 * every answer would be "I don't know".
 */
export function widgetAnswersModule(seams: { articlesFor?: ArticlesForQuestion } = {}) {
  const background = seams.articlesFor ? widgetAnswersBackground(seams.articlesFor) : { jobs: [], consumers: [] };
  return defineModule({ name: "widget-answers", jobs: background.jobs, consumers: background.consumers });
}
