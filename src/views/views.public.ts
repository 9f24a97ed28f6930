/** What other features may use of views: the views a caller sees, and the rewrite of a renamed label. */
export {
  createView,
  findVisibleView,
  listVisibleViews,
  renameTagInViews,
  type ViewFilters,
  type ViewJson,
} from "./views.service";
