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
import { InLocale } from "./locale";
import { chooseLocale, matchLocale, t } from "../lib/i18n/i18n";
import { useWorkspace } from "../lib/resources/workspace";

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
  const signedOut = invite ? (
    <InviteAccept token={invite.token} />
  ) : path === "/reset-password" ? (
    <ResetPassword />
  ) : path === "/forgot-password" ? (
    <ForgotPassword />
  ) : path === "/sso/confirm" ? (
    <SsoLinkConfirm />
  ) : !booted ? (
    <Loading label={t("app.startingDesk")} />
  ) : !auth.accessToken ? (
    <SignedOut path={path} />
  ) : null;
  // Nobody known yet: the browser's languages choose (DECISIONS.md "Languages").
  if (signedOut) return <InLocale locale={chooseLocale(null)}>{signedOut}</InLocale>;
  return <SignedIn path={path} />;
}

/**
 * The signed-in app in the member's language: their own choice, else the browser's, else the
 * workspace's default. The workspace is waited for only when it decides, so the inbox's first paint
 * does not wait on it otherwise.
 */
function MemberLocale({ tag, children }: { tag: string | null; children: ReactNode }) {
  const workspace = useWorkspace();
  const decided = (tag && matchLocale(tag)) || navigator.languages.some((l) => matchLocale(l));
  if (!decided && workspace.isPending) return <Loading />;
  const workspaceLocale = workspace.data?.settings?.locale;
  const locale = chooseLocale(tag, typeof workspaceLocale === "string" ? workspaceLocale : null);
  return (
    <InLocale locale={locale} memberTag={tag}>
      {children}
    </InLocale>
  );
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

  if (status.isPending) return <Loading label={t("app.startingDesk")} />;
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
  const tag = me.data.user?.locale ?? null;
  if (!workspaces?.length || path === "/setup") {
    return (
      <InLocale locale={chooseLocale(tag)} memberTag={tag}>
        <Setup />
      </InLocale>
    );
  }
  if (!auth.workspaceId || !workspaces.some((w) => w.id === auth.workspaceId)) return <Loading />;

  return (
    <MemberLocale tag={tag}>
      <Shell key={auth.workspaceId} path={path} onIdle={preloadTicketPage}>
        <PageErrorBoundary key={path}>
          <Suspense fallback={<Loading />}>
            <Page path={path} />
          </Suspense>
        </PageErrorBoundary>
      </Shell>
    </MemberLocale>
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
