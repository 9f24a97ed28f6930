/** What the composition root wires from the widget: the guard's visitor sessions and the gateway's visitor view. */
export { visitorResolver, widgetHasVisitors } from "./widget.sessions";
export { visitorView } from "./widget.gateway";
