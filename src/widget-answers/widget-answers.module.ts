import { defineModule } from "../module";
import { articlesFor, widgetAnswersBackground } from "./widget-answers.jobs";

const background = widgetAnswersBackground();

/**
 * Widget answers (src/widget-answers): the AI agent answering chat visitors from the published
 * articles its `articlesFor` port finds (the knowledge base's search, provided by the widget).
 */
export const widgetAnswersModule = defineModule({
  name: "widget-answers",
  jobs: background.jobs,
  consumers: background.consumers,
  ports: [articlesFor],
});
