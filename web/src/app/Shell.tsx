import { AssistantPanel } from "../assistant/AssistantPanel";
import { useQueryClient } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useState } from "react";
import { api, refreshSession, setSession, setWorkspace } from "../lib/api/client";
import { useCounts } from "../tickets/tickets.queries";
import { useViews } from "../lib/resources/views";
import { useRealtime } from "../lib/realtime/realtime";
import { resources } from "./resources";
import { canAdmin, sessionKeys, useAccounts, useAuth, useMe, useRole } from "../lib/api/session";
import { Avatar, Modal, typingInField } from "../lib/ui/bits";
import { useDismiss } from "../lib/ui/layers";
import { Link } from "../lib/router/Link";
import { navigate } from "../lib/router/router";
import { AvailabilitySwitch, useHeartbeat } from "../availability/AvailabilitySwitch";
import { NotificationBell } from "../notifications/NotificationBell";
import { OnboardingChecklist } from "../onboarding/Checklist";
import { type MessageKey, t } from "../lib/i18n/i18n";

// Loaded on first use, so the inbox's first paint does not carry it.
const GlobalSearch = lazy(() => import("./GlobalSearch"));

/** Opens with Ctrl+K / ⌘K from anywhere in the app, or with the sidebar's search button. */
function useGlobalSearchShortcut(open: () => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        open();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);
}

// Message keys, not texts: the labels are looked up in the active language while rendering.
const FOLDERS: Array<{
  id: string;
  label: MessageKey;
  count: "unassigned" | "mine" | "open" | "pending" | "on_hold" | "solved" | "snoozed" | "spam" | null;
}> = [
  { id: "unassigned", label: "app.folderUnassigned", count: "unassigned" },
  { id: "mine", label: "app.folderMine", count: "mine" },
  { id: "following", label: "app.folderFollowing", count: null },
  { id: "open", label: "app.folderOpen", count: "open" },
  { id: "pending", label: "app.folderPending", count: "pending" },
  { id: "on_hold", label: "app.folderOnHold", count: "on_hold" },
  { id: "snoozed", label: "app.folderSnoozed", count: "snoozed" },
  { id: "solved", label: "app.folderSolved", count: "solved" },
  { id: "all", label: "app.folderAll", count: null },
  { id: "spam", label: "app.folderSpam", count: "spam" },
];

export function Shell({ path, children, onIdle }: { path: string; children: ReactNode; onIdle?: () => void }) {
  const live = useRealtime(resources);
  useHeartbeat();
  const counts = useCounts();
  // The tab shows the work waiting for this person (unassigned tickets and their own open ones), so
  // a background tab says when something arrives.
  const waiting = counts.data ? counts.data.unassigned + counts.data.mine : 0;
  const section = path.startsWith("/inbox/") ? "inbox" : path.startsWith("/tickets/") ? "ticket" : "none";
  useEffect(() => {
    document.title = t("app.documentTitle", { waiting, section });
  }, [waiting, section]);
  const views = useViews();
  const role = useRole();
  const [help, setHelp] = useState(false);
  const [searching, setSearching] = useState(false);
  const openSearch = useCallback(() => setSearching(true), []);
  useGlobalSearchShortcut(openSearch);
  // On a phone the navigation is a drawer behind the menu button; any navigation closes it, from the
  // new page's first render (React's "adjust state when a prop changes").
  const [navOpen, setNavOpen] = useState(false);
  const [navPath, setNavPath] = useState(path);
  if (navPath !== path) {
    setNavPath(path);
    setNavOpen(false);
  }
  useDismiss(() => setNavOpen(false), navOpen);

  useEffect(() => {
    const timer = setTimeout(() => onIdle?.(), 300);
    return () => clearTimeout(timer);
  }, [onIdle]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typingInField() || e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === "?") setHelp((v) => !v);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const active = (to: string) => (path === to || path.startsWith(`${to}/`) ? " active" : "");
  return (
    <div className={`shell${navOpen ? " nav-open" : ""}`}>
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          // Focus moves without touching the URL, which the router owns.
          e.preventDefault();
          document.getElementById("main")?.focus();
        }}
      >
        {t("app.skipToMain")}
      </a>
      {navOpen && <div className="nav-backdrop" role="presentation" onClick={() => setNavOpen(false)} />}
      <nav className="sidebar" id="main-nav" aria-label={t("app.mainNavigation")}>
        <WorkspaceSwitcher />
        <button type="button" className="nav-search" onClick={openSearch} aria-keyshortcuts="Control+K Meta+K">
          <span>{t("app.search")}</span>
          <kbd>Ctrl K</kbd>
        </button>
        <div className="nav-section">
          {FOLDERS.map((f) => (
            <Link key={f.id} to={`/inbox/${f.id}`} className={`nav-item${active(`/inbox/${f.id}`)}`}>
              <span>{t(f.label)}</span>
              {f.count && counts.data ? (
                <span className="nav-count" data-testid={`count-${f.id}`}>
                  {counts.data[f.count]}
                </span>
              ) : null}
            </Link>
          ))}
        </div>
        <div className="nav-heading">{t("app.views")}</div>
        <div className="nav-section">
          {views.data?.length ? (
            views.data.map((v) => (
              <Link key={v.id} to={`/views/${v.id}`} className={`nav-item${active(`/views/${v.id}`)}`}>
                <span>{v.name}</span>
                {counts.data?.views?.[v.id] !== undefined && (
                  <span className="nav-count">{counts.data.views[v.id]}</span>
                )}
              </Link>
            ))
          ) : (
            <div className="nav-empty muted small">
              {views.isError ? t("app.viewsUnavailable") : t("app.noViewsYet")}
            </div>
          )}
        </div>
        <div className="nav-section">
          <Link to="/contacts" className={`nav-item${active("/contacts")}`}>
            {t("app.contacts")}
          </Link>
          <Link to="/companies" className={`nav-item${active("/companies")}`}>
            {t("app.companies")}
          </Link>
          <Link to="/kb" className={`nav-item${active("/kb")}`}>
            {t("app.knowledgeBase")}
          </Link>
          <Link to="/reports" className={`nav-item${active("/reports")}`}>
            {t("app.reports")}
          </Link>
          {canAdmin(role) && (
            <Link to="/audit-log" className={`nav-item${active("/audit-log")}`}>
              {t("app.auditLog")}
            </Link>
          )}
          <Link to="/settings" className={`nav-item${active("/settings")}`}>
            {canAdmin(role) ? t("app.settings") : t("app.preferences")}
          </Link>
        </div>
        <div className="sidebar-status">
          <AvailabilitySwitch />
          <NotificationBell active={path === "/notifications"} />
        </div>
        <div className="sidebar-foot">
          <AccountMenu />
          <span
            className={`live live-${live}`}
            title={t("app.realtimeState", { state: live })}
            data-testid="live"
            data-state={live}
          />
          <ThemeToggle />
          <button
            type="button"
            className="btn-icon kbd-only"
            onClick={() => setHelp(true)}
            title={t("app.keyboardShortcutsHint")}
            aria-label={t("app.keyboardShortcuts")}
          >
            ?
          </button>
        </div>
      </nav>
      <main className="main" id="main" tabIndex={-1}>
        <div className="mobile-bar">
          <button
            type="button"
            className="btn-icon"
            aria-label={t("app.menu")}
            aria-controls="main-nav"
            aria-expanded={navOpen}
            onClick={() => setNavOpen((v) => !v)}
          >
            ☰
          </button>
          <span className="brand">Desk</span>
        </div>
        <div className="main-body">
          {path.startsWith("/inbox/") && <OnboardingChecklist />}
          {children}
        </div>
      </main>
      {help && <ShortcutHelp onClose={() => setHelp(false)} />}
      {searching && (
        <Suspense fallback={null}>
          <GlobalSearch onClose={() => setSearching(false)} />
        </Suspense>
      )}
      <AssistantPanel />
    </div>
  );
}

function WorkspaceSwitcher() {
  const auth = useAuth();
  const me = useMe();
  const client = useQueryClient();
  const workspaces = me.data?.workspaces ?? [];
  return (
    <div className="ws-switch">
      <select
        aria-label={t("app.workspace")}
        value={auth.workspaceId ?? ""}
        onChange={(e) => {
          if (e.target.value === "__new") return navigate("/setup");
          client.removeQueries({
            predicate: (q) => q.queryKey[0] !== sessionKeys.me[0] && q.queryKey[0] !== sessionKeys.accounts[0],
          });
          setWorkspace(e.target.value);
          navigate("/inbox/unassigned");
        }}
      >
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
        <option value="__new">{t("app.newWorkspace")}</option>
      </select>
    </div>
  );
}

function AccountMenu() {
  const auth = useAuth();
  const accounts = useAccounts();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const user = auth.user!;

  const switchTo = async (userId: string) => {
    setOpen(false);
    client.clear();
    if (!(await refreshSession(userId))) navigate("/signin?add=1");
    else navigate("/inbox/unassigned");
  };
  const signOut = async (all: boolean) => {
    await api("/auth/logout", { method: "POST", body: all ? { all: true } : { user_id: user.id } }).catch(() => {});
    client.clear();
    setSession(null);
    // Another account may still be signed in on this browser.
    if (!all && (await refreshSession())) navigate("/inbox/unassigned");
    else navigate("/signin");
  };

  return (
    <div className="account">
      <button
        type="button"
        className="account-btn"
        onClick={() => setOpen((v) => !v)}
        aria-haspopup="menu"
        aria-expanded={open}
        title={user.email}
      >
        <Avatar name={user.name} url={user.avatar_url} size={22} />
        <span className="account-name">{user.name}</span>
      </button>
      {open && (
        <div className="menu" role="menu" onMouseLeave={() => setOpen(false)}>
          <AccountMenuEsc close={() => setOpen(false)} />
          <div className="menu-label">{t("app.signedInAs", { email: user.email })}</div>
          {(accounts.data ?? [])
            .filter((a) => a.user.id !== user.id)
            .map((a) => (
              <button
                type="button"
                key={a.user.id}
                role="menuitem"
                className="menu-item"
                onClick={() => switchTo(a.user.id)}
              >
                <Avatar name={a.user.name} url={a.user.avatar_url} size={18} />{" "}
                {t("app.switchTo", { email: a.user.email })}
              </button>
            ))}
          <button
            type="button"
            role="menuitem"
            className="menu-item"
            onClick={() => {
              setOpen(false);
              navigate("/profile");
            }}
          >
            {t("app.yourProfile")}
          </button>
          <button
            type="button"
            role="menuitem"
            className="menu-item"
            onClick={() => {
              setOpen(false);
              setSession(null);
              navigate("/signin?add=1");
            }}
          >
            {t("app.addAnotherAccount")}
          </button>
          <button type="button" role="menuitem" className="menu-item" onClick={() => signOut(false)}>
            {t("app.signOut")}
          </button>
          {(accounts.data?.length ?? 0) > 1 && (
            <button type="button" role="menuitem" className="menu-item" onClick={() => signOut(true)}>
              {t("app.signOutAll")}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

/** Esc closes the open account menu (a layer, see ui/layers). */
function AccountMenuEsc({ close }: { close: () => void }) {
  useDismiss(close);
  return null;
}

function ThemeToggle() {
  const [theme, setTheme] = useState(() => document.documentElement.dataset.theme ?? "");
  const next = theme === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      className="btn-icon"
      title={t("app.switchTheme", { theme: next })}
      aria-label={t("app.switchTheme", { theme: next })}
      onClick={() => {
        document.documentElement.dataset.theme = next;
        localStorage.setItem("desk.theme", next);
        setTheme(next);
      }}
    >
      {theme === "dark" ? "☀" : "☾"}
    </button>
  );
}

// Keys stay as typed; what they do is a message key, looked up while rendering.
const SHORTCUTS: Array<[string, MessageKey]> = [
  ["j / k", "app.shortcutNextPrevious"],
  ["Enter / o", "app.shortcutOpen"],
  ["x", "app.shortcutSelect"],
  ["r", "app.shortcutReply"],
  ["n", "app.shortcutNote"],
  ["e", "app.shortcutSolve"],
  ["#", "app.shortcutSpam"],
  ["/", "app.shortcutSearchList"],
  ["⌘/Ctrl + K", "app.shortcutSearchEverything"],
  ["Esc", "app.shortcutBack"],
  ["⌘/Ctrl + Enter", "app.shortcutSend"],
  ["/shortcut", "app.shortcutSavedReply"],
  ["Ctrl/⌘ + J", "app.shortcutAssistant"],
  ["?", "app.shortcutHelp"],
];

function ShortcutHelp({ onClose }: { onClose: () => void }) {
  return (
    <Modal title={t("app.keyboardShortcuts")} onClose={onClose}>
      <dl className="shortcuts">
        {SHORTCUTS.map(([key, what]) => (
          <div key={key}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{t(what)}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
