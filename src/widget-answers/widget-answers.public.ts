/**
 * What the chat widget uses of widget answers: `answerVisitor` answers a visitor's message from
 * published articles as the AI agent, or hands the conversation to people.
 */
export {
  answerVisitor,
  handoffMailDue,
  HANDOFF_MAIL_EVERY_MS,
  type AnswerOutcome,
  type VisitorAnswer,
  type VisitorArticle,
  type VisitorQuestion,
} from "./widget-answers.service";
export { articlesFor, type ArticlesForQuestion } from "./widget-answers.jobs";
