import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { refreshSession, setWorkspace } from "../lib/api/client";
import { useInstanceStatus } from "../lib/api/queries";
import { useAuth, useMe } from "../lib/api/session";
import { Inbox } from "../inbox/Inbox";
import { InviteAccept } from "../account/InviteAccept";
import { ForgotPassword, ResetPassword } from "../account/PasswordReset";
import { SsoLinkConfirm } from "../account/SsoLinks";
import { Setup } from "../account/Setup";
import { SignIn } from "../account/SignIn";
import { PageErrorBoundary } from "../lib/ui/ErrorBoundary";
import { ErrorBox, Loading } from "../lib/ui/states";
import { match, navigate, useLocation } from "../lib/router/router";
import { Shell } from "./Shell";

// Less-visited pages load on demand so the inbox's first paint stays small.
const TicketPage = lazy(() => import("../tickets/TicketPage").then((m) => ({ default: m.TicketPage })));
const Contacts = lazy(() => import("../contacts/Contacts").then((m) => ({ default: m.Contacts })));
const ContactDetail = lazy(() => import("../contacts/Contacts").then((m) => ({ default: m.ContactDetail })));
const Companies = lazy(() => import("../contacts/Companies").then((m) => ({ default: m.Companies })));
const CompanyDetail = lazy(() => import("../contacts/Companies").then((m) => ({ default: m.CompanyDetail })));
const Profile = lazy(() => import("../account/Profile").then((m) => ({ default: m.Profile })));
const KnowledgeBase = lazy(() => import("../kb/KnowledgeBase").then((m) => ({ default: m.KnowledgeBase })));
const ArticleEditor = lazy(() => import("../kb/ArticleEditor").then((m) => ({ default: m.ArticleEditor })));
const NotificationsPage = lazy(() =>
  import("../notifications/NotificationsPage").then((m) => ({ default: m.NotificationsPage })),
);
const Reports = lazy(() => import("../reports/Reports"));
const AuditLog = lazy(() => import("../audit/AuditLog"));
const Settings = lazy(() => import("../settings/Settings").then((m) => ({ default: m.Settings })));

// Fetch the ticket page's code while the person looks at the inbox, so the first open is instant.
const preloadTicketPage = () => import("../tickets/TicketPage");

export function App() {
  const auth = useAuth();
  const { path } = useLocation();
  const [booted, setBooted] = useState(false);

  useEffect(() => {
    refreshSession().finally(() => setBooted(true));
  }, []);

  const invite = match("/invite/:token", path);
  if (invite) return <InviteAccept token={invite.token} />;
  if (path === "/reset-password") return <ResetPassword />;
  if (path === "/forgot-password") return <ForgotPassword />;
  if (path === "/sso/confirm") return <SsoLinkConfirm />;
  if (!booted) return <Loading label="Starting Desk…" />;
  if (!auth.accessToken) return <SignedOut path={path} />;
  return <SignedIn path={path} />;
}

/** Nobody signed in: a fresh instance opens on setup, any other on sign-in (then back to `next`). */
function SignedOut({ path }: { path: string }) {
  const status = useInstanceStatus();
  const target = !status.data
    ? null
    : !status.data.has_users
      ? "/setup"
      : path === "/setup" && status.data.signup_open
        ? "/setup"
        : "/signin";
  useEffect(() => {
    if (!target || path === target) return;
    const keep = target === "/signin" && path !== "/" && path !== "/setup" && path !== "/signin";
    navigate(`${target}${keep ? `?next=${encodeURIComponent(path)}` : ""}`, { replace: true });
  }, [target, path]);

  if (status.isPending) return <Loading label="Starting Desk…" />;
  // Without the status (Desk unreachable) sign-in is the safe page: it reports errors itself.
  if (status.isError) return path === "/setup" ? <Setup /> : <SignIn />;
  if (path !== target) return null;
  return target === "/setup" ? <Setup /> : <SignIn signupOpen={status.data.signup_open} />;
}

function SignedIn({ path }: { path: string }) {
  const auth = useAuth();
  const me = useMe();
  const workspaces = me.data?.workspaces;

  useEffect(() => {
    if (workspaces?.length && !workspaces.some((w) => w.id === auth.workspaceId)) setWorkspace(workspaces[0].id);
  }, [workspaces, auth.workspaceId]);

  useEffect(() => {
    if (path === "/" || path === "/signin" || path === "/setup" || path === "/inbox") {
      if (workspaces?.length) navigate("/inbox/unassigned", { replace: true });
    }
  }, [path, workspaces]);

  if (me.isPending) return <Loading />;
  if (me.isError) return <ErrorBox error={me.error} retry={() => me.refetch()} />;
  if (!workspaces?.length || path === "/setup") return <Setup />;
  if (!auth.workspaceId || !workspaces.some((w) => w.id === auth.workspaceId)) return <Loading />;

  return (
    <Shell key={auth.workspaceId} path={path} onIdle={preloadTicketPage}>
      <PageErrorBoundary key={path}>
        <Suspense fallback={<Loading />}>
          <Page path={path} />
        </Suspense>
      </PageErrorBoundary>
    </Shell>
  );
}

/** The app's pages in order, first match wins; a path none matches opens the unassigned inbox. */
const PAGES: Array<[pattern: string, render: (params: Record<string, string>) => ReactNode]> = [
  ["/inbox/:folder", (p) => <Inbox folder={p.folder} />],
  ["/views/:id", (p) => <Inbox folder={`view:${p.id}`} />],
  ["/tickets/:number", (p) => <TicketPage number={p.number} />],
  ["/contacts", () => <Contacts />],
  ["/contacts/:id", (p) => <ContactDetail id={p.id} />],
  ["/companies", () => <Companies />],
  ["/companies/:id", (p) => <CompanyDetail id={p.id} />],
  ["/kb", () => <KnowledgeBase />],
  ["/kb/articles/:id", (p) => <ArticleEditor id={p.id} />],
  ["/profile", () => <Profile />],
  ["/notifications", () => <NotificationsPage />],
  ["/reports", () => <Reports />],
  ["/audit-log", () => <AuditLog />],
  ["/settings", () => <Settings page="workspace" />],
  ["/settings/:page", (p) => <Settings page={p.page} />],
];

function Page({ path }: { path: string }) {
  for (const [pattern, render] of PAGES) {
    // A pattern without parameters is one exact path: "/contacts/" is unknown, like any other.
    const params = pattern.includes(":") ? match(pattern, path) : pattern === path ? {} : null;
    if (params) return render(params);
  }
  return <Inbox folder="unassigned" />;
}
