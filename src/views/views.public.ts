/** What other features may use of views: the saved filters a ticket list applies. */
export { findVisibleView, listVisibleViews, type ViewFilters } from "./views.service";
