import { useSyncExternalStore } from "react";

/** A small pushState router: the app has a handful of routes and needs no library for them. */
const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};
window.addEventListener("popstate", notify);

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => location.pathname + location.search;

/**
 * How many entries of this tab's history Desk pushed before the current one. An entry opened from
 * a link (a fresh tab, an email, another site) has none, so "back" must not leave Desk from it.
 */
const depth = (): number => {
  const state: unknown = history.state;
  return typeof state === "object" && state !== null && "deskDepth" in state && typeof state.deskDepth === "number"
    ? state.deskDepth
    : 0;
};

export function navigate(to: string, options: { replace?: boolean } = {}) {
  if (to === snapshot()) return;
  if (options.replace) history.replaceState({ deskDepth: depth() }, "", to);
  else history.pushState({ deskDepth: depth() + 1 }, "", to);
  notify();
}

/** Back within Desk: the previous entry when Desk pushed one, otherwise `fallback` (never out of Desk). */
export function goBack(fallback: string) {
  if (depth() > 0) history.back();
  else navigate(fallback);
}

export function useLocation(): { path: string; search: URLSearchParams } {
  const current = useSyncExternalStore(subscribe, snapshot);
  const [path, query = ""] = current.split("?");
  return { path, search: new URLSearchParams(query) };
}

/** Matches "/tickets/:id" against a path; answers the params or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const a = pattern.split("/").filter(Boolean);
  const b = path.split("/").filter(Boolean);
  if (a.length !== b.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    if (a[i].startsWith(":")) params[a[i].slice(1)] = decodeURIComponent(b[i]);
    else if (a[i] !== b[i]) return null;
  }
  return params;
}

/** An anchor that navigates without a reload (modifier clicks still open new tabs). */
export function linkHandler(to: string) {
  return (event: React.MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(to);
  };
}
