import { lazy, Suspense } from "react";
import { canAdmin, useRole } from "../lib/api/session";
import { type MessageKey, t } from "../lib/i18n/i18n";
import { Link } from "../lib/router/Link";
import { Empty, Loading } from "../lib/ui/states";

const pages: Array<{
  id: string;
  label: MessageKey;
  admin: boolean;
  load: () => Promise<{ default: React.ComponentType }>;
}> = [
  {
    id: "workspace",
    label: "settings.navWorkspace",
    admin: false,
    load: () => import("./workspace/WorkspaceSettings"),
  },
  { id: "members", label: "settings.navMembers", admin: true, load: () => import("./team/MembersSettings") },
  { id: "teams", label: "settings.navTeams", admin: true, load: () => import("./team/TeamsSettings") },
  { id: "assignment", label: "settings.navAssignment", admin: true, load: () => import("./team/AssignmentSettings") },
  { id: "labels", label: "settings.navLabels", admin: true, load: () => import("./tickets/LabelsSettings") },
  { id: "fields", label: "settings.navFields", admin: true, load: () => import("./tickets/FieldsSettings") },
  { id: "views", label: "settings.navViews", admin: false, load: () => import("./tickets/ViewsSettings") },
  {
    id: "saved-replies",
    label: "settings.navSavedReplies",
    admin: false,
    load: () => import("./replies/SavedRepliesSettings"),
  },
  { id: "macros", label: "settings.navMacros", admin: false, load: () => import("./replies/MacrosSettings") },
  { id: "sla", label: "settings.navSla", admin: true, load: () => import("./sla/SlaSettings") },
  {
    id: "business-hours",
    label: "settings.navBusinessHours",
    admin: true,
    load: () => import("./sla/BusinessHoursSettings"),
  },
  {
    id: "automations",
    label: "settings.navAutomations",
    admin: true,
    load: () => import("./automation/AutomationsSettings"),
  },
  {
    id: "help-center",
    label: "settings.navHelpCenter",
    admin: true,
    load: () => import("./workspace/HelpCenterSettings"),
  },
  { id: "triage", label: "settings.navTriage", admin: true, load: () => import("./automation/TriageSettings") },
  { id: "mailboxes", label: "settings.navMailboxes", admin: true, load: () => import("./channels/MailboxesSettings") },
  { id: "widget", label: "settings.navWidget", admin: true, load: () => import("./channels/WidgetSettings") },
  { id: "api-keys", label: "settings.navApiKeys", admin: true, load: () => import("./developers/ApiKeysSettings") },
  { id: "webhooks", label: "settings.navWebhooks", admin: true, load: () => import("./developers/WebhooksSettings") },
  { id: "import", label: "settings.navImport", admin: true, load: () => import("./import/ImportSettings") },
  { id: "system", label: "settings.navSystem", admin: true, load: () => import("./system/SystemSettings") },
  { id: "ai", label: "settings.navAi", admin: true, load: () => import("../ai/AiSettings") },
  { id: "ai-usage", label: "settings.navAiUsage", admin: true, load: () => import("../ai/AiUsage") },
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
      <nav className="settings-nav" aria-label={t("settings.title")}>
        <h2>{t("settings.title")}</h2>
        {visible.map((p) => (
          <Link key={p.id} to={`/settings/${p.id}`} className={`nav-item${p.id === current?.id ? " active" : ""}`}>
            {t(p.label)}
          </Link>
        ))}
      </nav>
      <div className="settings-body">
        {Component ? (
          <Suspense fallback={<Loading />}>
            <Component />
          </Suspense>
        ) : (
          <Empty title={t("settings.notAvailable")}>{t("settings.needsAdmin")}</Empty>
        )}
      </div>
    </section>
  );
}
