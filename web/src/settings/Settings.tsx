import { lazy, Suspense } from "react";
import { canAdmin, useRole } from "../lib/api/session";
import { Link } from "../lib/router/Link";
import { Empty, Loading } from "../lib/ui/states";

const pages: Array<{
  id: string;
  label: string;
  admin: boolean;
  load: () => Promise<{ default: React.ComponentType }>;
}> = [
  { id: "workspace", label: "Workspace", admin: false, load: () => import("./workspace/WorkspaceSettings") },
  { id: "members", label: "Members", admin: true, load: () => import("./team/MembersSettings") },
  { id: "teams", label: "Teams", admin: true, load: () => import("./team/TeamsSettings") },
  { id: "assignment", label: "Assignment", admin: true, load: () => import("./team/AssignmentSettings") },
  { id: "labels", label: "Labels", admin: true, load: () => import("./tickets/LabelsSettings") },
  { id: "fields", label: "Custom fields", admin: true, load: () => import("./tickets/FieldsSettings") },
  { id: "views", label: "Views", admin: false, load: () => import("./tickets/ViewsSettings") },
  { id: "saved-replies", label: "Saved replies", admin: false, load: () => import("./replies/SavedRepliesSettings") },
  { id: "macros", label: "Macros", admin: false, load: () => import("./replies/MacrosSettings") },
  { id: "sla", label: "SLA policies", admin: true, load: () => import("./sla/SlaSettings") },
  { id: "business-hours", label: "Business hours", admin: true, load: () => import("./sla/BusinessHoursSettings") },
  { id: "automations", label: "Automations", admin: true, load: () => import("./automation/AutomationsSettings") },
  { id: "help-center", label: "Help center", admin: true, load: () => import("./workspace/HelpCenterSettings") },
  { id: "triage", label: "Triage", admin: true, load: () => import("./automation/TriageSettings") },
  { id: "mailboxes", label: "Mailboxes", admin: true, load: () => import("./channels/MailboxesSettings") },
  { id: "widget", label: "Chat widget", admin: true, load: () => import("./channels/WidgetSettings") },
  { id: "api-keys", label: "API keys", admin: true, load: () => import("./developers/ApiKeysSettings") },
  { id: "webhooks", label: "Webhooks", admin: true, load: () => import("./developers/WebhooksSettings") },
  { id: "import", label: "Import", admin: true, load: () => import("./import/ImportSettings") },
  { id: "system", label: "System", admin: true, load: () => import("./system/SystemSettings") },
  { id: "ai", label: "AI", admin: true, load: () => import("../ai/AiSettings") },
  { id: "ai-usage", label: "AI usage", admin: true, load: () => import("../ai/AiUsage") },
];
const components = new Map(pages.map((p) => [p.id, lazy(p.load)]));

/** Settings: each page is listed only for the roles that may use it. */
export function Settings({ page }: { page: string }) {
  const role = useRole();
  const visible = pages.filter((p) => !p.admin || canAdmin(role));
  const current = visible.find((p) => p.id === page);
  const Component = current && components.get(current.id);
  return (
    <section className="settings">
      <nav className="settings-nav" aria-label="Settings">
        <h2>Settings</h2>
        {visible.map((p) => (
          <Link key={p.id} to={`/settings/${p.id}`} className={`nav-item${p.id === current?.id ? " active" : ""}`}>
            {p.label}
          </Link>
        ))}
      </nav>
      <div className="settings-body">
        {Component ? (
          <Suspense fallback={<Loading />}>
            <Component />
          </Suspense>
        ) : (
          <Empty title="Not available">This page needs an admin role in this workspace.</Empty>
        )}
      </div>
    </section>
  );
}
