/**
 * What other features may use of semantic search: feeding and removing knowledge-base articles
 * (the `kb_article.*` events do it already; these are for imports and re-indexing) and the
 * seam through which the knowledge base presents article hits.
 */
export { articleText, indexArticle } from "./semantic.jobs";
export { forgetDocument } from "./semantic.store";
export { semanticFullTextRead, type ArticlesById } from "./semantic.service";
