import { t } from "../i18n/i18n";
import type { MfaChallenge, Session, UserRef } from "./types";

/** SPEC.md's error body, thrown by every failed call. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors: Array<{ location: string; message: string }> = [],
  ) {
    super(detail);
  }
  /** The message for one field: `at("name")` matches location `body.name` (and `query.name`). */
  at(field: string): string | undefined {
    return this.errors.find(
      (e) => e.location === `body.${field}` || e.location === `query.${field}` || e.location === field,
    )?.message;
  }
}

type Auth = { accessToken: string | null; user: UserRef | null; workspaceId: string | null };
const auth: Auth = { accessToken: null, user: null, workspaceId: null };
const listeners = new Set<() => void>();
let version = 0;

export const authState = () => auth;
export const authVersion = () => version;
export function onAuthChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
function changed() {
  version++;
  for (const listener of listeners) listener();
}

const WORKSPACE_KEY = (userId: string) => `desk.workspace.${userId}`;

export function setSession(session: Session | null) {
  auth.accessToken = session?.access_token ?? null;
  auth.user = session?.user ?? null;
  auth.workspaceId = session ? localStorage.getItem(WORKSPACE_KEY(session.user.id)) : null;
  changed();
}

export function setWorkspace(workspaceId: string | null) {
  auth.workspaceId = workspaceId;
  if (auth.user) {
    if (workspaceId) localStorage.setItem(WORKSPACE_KEY(auth.user.id), workspaceId);
    else localStorage.removeItem(WORKSPACE_KEY(auth.user.id));
  }
  changed();
}

async function parse(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toError(status: number, body: unknown): ApiError {
  if (body && typeof body === "object" && "detail" in body) {
    const b = body as { code?: string; detail: string; errors?: ApiError["errors"] };
    return new ApiError(status, b.code ?? "error", b.detail, b.errors ?? []);
  }
  if (status === 0) return new ApiError(0, "network", t("common.networkError"));
  return new ApiError(status, "error", t("common.serverAnswered", { status }));
}

async function raw(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, { credentials: "same-origin", ...init });
  } catch {
    throw toError(0, null);
  }
}

let refreshing: Promise<boolean> | null = null;

/** Exchanges the refresh cookie for a new access token (one at a time); false when signed out. */
export function refreshSession(userId?: string): Promise<boolean> {
  if (refreshing && !userId) return refreshing;
  const attempt = (async () => {
    const response = await raw("/v1/auth/refresh", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(userId ? { user_id: userId } : auth.user ? { user_id: auth.user.id } : {}),
    });
    if (!response.ok) return false;
    const session = (await parse(response)) as Session;
    const sameUser = auth.user?.id === session.user.id;
    if (sameUser) {
      auth.accessToken = session.access_token;
      auth.user = session.user;
    } else setSession(session);
    return true;
  })().finally(() => {
    if (refreshing === attempt) refreshing = null;
  });
  if (!userId) refreshing = attempt;
  return attempt;
}

export type RequestOptions = {
  method?: string;
  body?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  workspace?: boolean;
};

/** Calls the /v1 API with the access token and workspace; refreshes once on 401 and retries. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const send = () => {
    const headers: Record<string, string> = { ...options.headers };
    if (auth.accessToken) headers.authorization = `Bearer ${auth.accessToken}`;
    if (auth.workspaceId && options.workspace !== false) headers["desk-workspace"] = auth.workspaceId;
    let body: BodyInit | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    return raw(`/v1${path}`, {
      method: options.method ?? (body ? "POST" : "GET"),
      headers,
      body,
      signal: options.signal,
    });
  };
  let response = await send();
  if (response.status === 401 && auth.accessToken && !path.startsWith("/auth/")) {
    if (await refreshSession()) response = await send();
    else setSession(null);
  }
  const body = await parse(response);
  if (!response.ok) throw toError(response.status, body);
  return body as T;
}

export const isMfa = (value: Session | MfaChallenge): value is MfaChallenge =>
  "mfa_required" in value && value.mfa_required === true;

/** Query string from an object, skipping empty values. */
export function qs(params: Record<string, string | number | boolean | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}

/**
 * Calls a streaming route (`Accept: text/event-stream`): `onDelta` gets each `delta` event's text
 * as it arrives; resolves with the `done` event's data, throws the `error` event's problem body.
 * Aborting `signal` closes the stream, which cancels the work on the server.
 */
export async function apiStream<T>(
  path: string,
  body: unknown,
  onDelta: (text: string) => void,
  signal?: AbortSignal,
): Promise<T> {
  let result: { value: T } | null = null;
  await apiEvents(
    path,
    body,
    (event, data) => {
      if (event === "delta") onDelta((data as { text: string }).text);
      else if (event === "done") result = { value: data as T };
    },
    signal,
  );
  if (!result) throw toError(502, { code: "stream_ended", detail: t("common.streamEnded") });
  return (result as { value: T }).value;
}

/**
 * POSTs and reads a Server-Sent Events answer, handing every event (name and parsed data) to
 * `onEvent` until the stream ends; an `error` event or a failed status rejects with the problem.
 */
export async function apiEvents(
  path: string,
  body: unknown,
  onEvent: (event: string, data: unknown) => void,
  signal?: AbortSignal,
): Promise<void> {
  const send = () => {
    const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream" };
    if (auth.accessToken) headers.authorization = `Bearer ${auth.accessToken}`;
    if (auth.workspaceId) headers["desk-workspace"] = auth.workspaceId;
    return raw(`/v1${path}`, { method: "POST", headers, body: JSON.stringify(body), signal });
  };
  let response = await send();
  if (response.status === 401 && auth.accessToken) {
    if (await refreshSession()) response = await send();
    else setSession(null);
  }
  if (!response.ok || !response.body) throw toError(response.status, await parse(response));
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
      const data = block
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n");
      const parsed: unknown = data ? JSON.parse(data) : null;
      if (event === "error") throw toError((parsed as { status?: number })?.status ?? 502, parsed);
      onEvent(event, parsed);
    }
  }
}
