/**
 * What the composition root wires from the widget: the guard's visitor sessions, the gateway's visitor
 * view and the idempotency scope of visitors' writes.
 */
export { visitorResolver, widgetHasVisitors, widgetKeyOnSite } from "./widget.sessions";
export { visitorView } from "./widget.gateway";
export { visitorIdempotencyCaller } from "./widget.cors";
/** Whether a chat visitor's email may get customer mail (CSAT): confirmed by its owner, or vouched for. */
export { chatEmailConfirmed } from "./widget.email-confirm";
