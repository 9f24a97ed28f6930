import { Component, type ErrorInfo, type ReactNode } from "react";
import { Link } from "../router/Link";
import { errorText } from "./states";
import { t } from "../i18n/i18n";

/**
 * One per page: a page that throws while rendering shows what went wrong and a way back instead
 * of unmounting the whole app (a white screen). The navigation around it keeps working; a new
 * path remounts the boundary (App keys it by path).
 */
export class PageErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error("page failed to render", error, info.componentStack);
  }

  render() {
    if (this.state.error === null) return this.props.children;
    return (
      <div className="state state-error" role="alert" data-testid="page-error">
        <div className="state-title">{t("common.pageFailed")}</div>
        <div className="muted small">{errorText(this.state.error)}</div>
        <div className="actions">
          <button type="button" className="btn btn-small" onClick={() => this.setState({ error: null })}>
            {t("common.retry")}
          </button>
          <Link to="/inbox/unassigned" className="btn btn-small">
            {t("common.backToInbox")}
          </Link>
        </div>
      </div>
    );
  }
}
