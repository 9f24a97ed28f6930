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

const FOLDERS: Array<{
  id: string;
  label: string;
  count: "unassigned" | "mine" | "open" | "pending" | "on_hold" | "solved" | "snoozed" | "spam" | null;
}> = [
  { id: "unassigned", label: "Unassigned", count: "unassigned" },
  { id: "mine", label: "Mine", count: "mine" },
  { id: "following", label: "Following", count: null },
  { id: "open", label: "Open", count: "open" },
  { id: "pending", label: "Pending", count: "pending" },
  { id: "on_hold", label: "On hold", count: "on_hold" },
  { id: "snoozed", label: "Snoozed", count: "snoozed" },
  { id: "solved", label: "Solved", count: "solved" },
  { id: "all", label: "All tickets", count: null },
  { id: "spam", label: "Spam", count: "spam" },
];

export function Shell({ path, children, onIdle }: { path: string; children: ReactNode; onIdle?: () => void }) {
  const live = useRealtime(resources);
  useHeartbeat();
  const counts = useCounts();
  // The tab shows the work waiting for this person (unassigned tickets and their own open ones), so
  // a background tab says when something arrives.
  const waiting = counts.data ? counts.data.unassigned + counts.data.mine : 0;
  const section = path.startsWith("/inbox/") ? "Inbox" : path.startsWith("/tickets/") ? "Ticket" : null;
  useEffect(() => {
    document.title = `${waiting > 0 ? `(${waiting}) ` : ""}${section ? `${section} · ` : ""}Desk`;
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
        Skip to main content
      </a>
      {navOpen && <div className="nav-backdrop" role="presentation" onClick={() => setNavOpen(false)} />}
      <nav className="sidebar" id="main-nav" aria-label="Main">
        <WorkspaceSwitcher />
        <button type="button" className="nav-search" onClick={openSearch} aria-keyshortcuts="Control+K Meta+K">
          <span>Search</span>
          <kbd>Ctrl K</kbd>
        </button>
        <div className="nav-section">
          {FOLDERS.map((f) => (
            <Link key={f.id} to={`/inbox/${f.id}`} className={`nav-item${active(`/inbox/${f.id}`)}`}>
              <span>{f.label}</span>
              {f.count && counts.data ? (
                <span className="nav-count" data-testid={`count-${f.id}`}>
                  {counts.data[f.count]}
                </span>
              ) : null}
            </Link>
          ))}
        </div>
        <div className="nav-heading">Views</div>
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
            <div className="nav-empty muted small">{views.isError ? "Views unavailable" : "No views yet"}</div>
          )}
        </div>
        <div className="nav-section">
          <Link to="/contacts" className={`nav-item${active("/contacts")}`}>
            Contacts
          </Link>
          <Link to="/companies" className={`nav-item${active("/companies")}`}>
            Companies
          </Link>
          <Link to="/kb" className={`nav-item${active("/kb")}`}>
            Knowledge base
          </Link>
          <Link to="/reports" className={`nav-item${active("/reports")}`}>
            Reports
          </Link>
          {canAdmin(role) && (
            <Link to="/audit-log" className={`nav-item${active("/audit-log")}`}>
              Audit log
            </Link>
          )}
          <Link to="/settings" className={`nav-item${active("/settings")}`}>
            {canAdmin(role) ? "Settings" : "Preferences"}
          </Link>
        </div>
        <div className="sidebar-status">
          <AvailabilitySwitch />
          <NotificationBell active={path === "/notifications"} />
        </div>
        <div className="sidebar-foot">
          <AccountMenu />
          <span className={`live live-${live}`} title={`Realtime: ${live}`} data-testid="live" data-state={live} />
          <ThemeToggle />
          <button
            type="button"
            className="btn-icon kbd-only"
            onClick={() => setHelp(true)}
            title="Keyboard shortcuts (?)"
            aria-label="Keyboard shortcuts"
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
            aria-label="Menu"
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
        aria-label="Workspace"
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
        <option value="__new">+ New workspace…</option>
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
          <div className="menu-label">Signed in as {user.email}</div>
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
                <Avatar name={a.user.name} url={a.user.avatar_url} size={18} /> Switch to {a.user.email}
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
            Your profile
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
            Add another account
          </button>
          <button type="button" role="menuitem" className="menu-item" onClick={() => signOut(false)}>
            Sign out
          </button>
          {(accounts.data?.length ?? 0) > 1 && (
            <button type="button" role="menuitem" className="menu-item" onClick={() => signOut(true)}>
              Sign out of all accounts
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
      title={`Switch to ${next} theme`}
      aria-label={`Switch to ${next} theme`}
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

const SHORTCUTS: Array<[string, string]> = [
  ["j / k", "Next / previous ticket"],
  ["Enter / o", "Open the selected ticket"],
  ["x", "Select the ticket under the cursor"],
  ["r", "Reply"],
  ["n", "Internal note"],
  ["e", "Solve (done)"],
  ["#", "Mark as spam"],
  ["/", "Search this list"],
  ["⌘/Ctrl + K", "Search everything"],
  ["Esc", "Back to the list"],
  ["⌘/Ctrl + Enter", "Send"],
  ["/shortcut", "Insert a saved reply (in the composer)"],
  ["Ctrl/⌘ + J", "Open or close the assistant"],
  ["?", "This help"],
];

function ShortcutHelp({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose}>
      <dl className="shortcuts">
        {SHORTCUTS.map(([key, what]) => (
          <div key={key}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
