import { z } from "zod";
import { systemContext } from "../auth/context";
import type { Deps } from "../deps";
import { type ConsumerContext, defineConsumer } from "../events/consumers";
import { enqueue } from "../jobs/enqueue";
import { defineJob, type JobContext } from "../jobs/define";
import { definePort } from "../lib/ports";
import { aiWorkspaceOf } from "../ai/ai.public";
import { addMessage, messageCreated, ticketOfWorkspace } from "../tickets/tickets.public";
import { answerVisitor, type VisitorArticle } from "./widget-answers.service";

/** The published articles to answer a visitor's question from (the knowledge base's search, wired at merge). */
export type ArticlesForQuestion = (
  deps: Deps,
  workspaceId: string,
  question: string,
) => VisitorArticle[] | Promise<VisitorArticle[]>;

/** The chat widget, above widget answers, provides the knowledge base's published search. */
export const articlesFor = definePort<ArticlesForQuestion>("widget-answers.articlesFor");

/**
 * The AI agent in the chat widget: a visitor's message on a chat ticket (an inbound reply by the
 * contact) enqueues an answer job when `widget_answers` is on; the job asks `answerVisitor` and posts
 * its text as a public reply by the system (author type `system`), which reaches the visitor like
 * an agent's reply. Handoffs notify people (answerVisitor) and post the handoff text when there is one.
 */
export function widgetAnswersBackground() {
  const answerJob = defineJob({
    name: "widget-answers.answer",
    schema: z.object({ workspace_id: z.string(), ticket_id: z.string(), question: z.string() }),
    retry: { maxAttempts: 1 },
    concurrency: 2,
    async handler(payload, { deps, signal }: JobContext<Deps>) {
      const articles = await deps.ports.get(articlesFor)(deps, payload.workspace_id, payload.question);
      const result = await answerVisitor(deps, {
        workspaceId: payload.workspace_id,
        conversationTicketId: payload.ticket_id,
        question: payload.question,
        articles,
        signal,
      });
      if (!result.answer) return;
      await addMessage(
        systemContext(payload.workspace_id),
        payload.ticket_id,
        { kind: "reply", direction: "outbound", body_text: result.answer, author: { type: "system" } },
        deps,
      );
    },
  });

  const onVisitorMessage = defineConsumer({
    name: "widget-answers.on-visitor-message",
    events: [messageCreated],
    async handle(tx, event, { deps }: ConsumerContext<Deps>) {
      if (!deps.config.ai) return;
      const { data } = event;
      const message = data.message;
      if (message.direction !== "inbound" || message.kind !== "reply") return;
      if (message.author.type !== "contact" || !message.body_text.trim()) return;
      const features = (await aiWorkspaceOf(deps, event.workspace_id)).features;
      if (!features.enabled || !features.widget_answers) return;
      if ((await ticketOfWorkspace(tx, event.workspace_id, data.ticket_id))?.channel !== "chat") return;
      await enqueue(
        tx,
        answerJob,
        { workspace_id: event.workspace_id, ticket_id: data.ticket_id, question: message.body_text.slice(0, 4000) },
        { workspaceId: event.workspace_id },
      );
    },
  });

  return { jobs: [answerJob], consumers: [onVisitorMessage] };
}
