/**
 * Desk's embeddable chat widget: `<script src="{base}/widget.js" data-key="{widget_key}" async></script>`.
 * Plain DOM in a shadow root (host-page CSS cannot reach in, ours cannot leak out), talking to
 * /v1/widget with the visitor credential and to the widget gateway for live replies and typing.
 * Verified visitors: set `window.deskWidget = { user_id, user_hash, email?, name?, avatar_url? }` before the tag.
 */
import css from "./widget.css?inline";
import { brandText, el, formatTime, linkified } from "./widget.dom";
import { translator, wantedLocale } from "./widget.i18n";

type Config = {
  workspace_name: string;
  brand_color: string;
  greeting: string;
  help_center_url: string | null;
  require_email: boolean;
  avatar_url: string | null;
  launcher_url: string | null;
  locale: string;
  messages: Record<string, string>;
};
type Attachment = { id: string; filename: string; content_type: string; url: string };
type Message = {
  id: string;
  conversation_id: string;
  direction: "inbound" | "outbound";
  author: { type: string; name: string; avatar_url: string | null };
  body_text: string;
  attachments: Attachment[];
  created_at: string;
};
type Conversation = { id: string; subject: string; last_message_at: string; last_message_preview: string };
type Article = { title: string; excerpt: string; url: string };
type Session = { visitor_token: string; contact: { email: string | null }; gateway_url: string };
type Frame = { type: string; seq?: number; ticket_id?: string; data?: { ticket_id: string; message: Message } };
type Identity = { user_id?: string; user_hash?: string; email?: string; name?: string; avatar_url?: string };

const script = document.currentScript as HTMLScriptElement | null;
const key = script?.dataset.key ?? "";
const base = script ? new URL(script.src).origin : location.origin;
const storeKey = `desk_widget:${key}`;

function stored(): string | null {
  try {
    return localStorage.getItem(storeKey);
  } catch {
    return null;
  }
}
function remember(token: string): void {
  try {
    localStorage.setItem(storeKey, token);
  } catch {
    // private mode: the session lasts as long as the page
  }
}

/**
 * Per conversation, a message time kept across page loads: when the visitor last saw it (`seen`,
 * its newest message then), the newest reply the launcher's badge counts (`counted`), and up to which
 * reply the badge was acknowledged by opening the chat (`acknowledged`: opening clears the badge
 * even when the visitor closes again before reading the thread, so a reload must not bring it back).
 */
function messageTimes(storageKey: string) {
  const read = (): Record<string, string> => {
    try {
      return JSON.parse(localStorage.getItem(storageKey) ?? "{}") as Record<string, string>;
    } catch {
      return {};
    }
  };
  const mark = (id: string, at: string): void => {
    try {
      const times = read();
      if ((times[id] ?? "") >= at) return;
      times[id] = at;
      localStorage.setItem(storageKey, JSON.stringify(times));
    } catch {
      // private mode: kept for this page only
    }
  };
  const clear = (): void => {
    try {
      localStorage.removeItem(storageKey);
    } catch {
      // private mode: nothing was kept
    }
  };
  return { read, mark, clear };
}
const seenStore = messageTimes(`desk_widget_seen:${key}`);
const acknowledgedStore = messageTimes(`desk_widget_acknowledged:${key}`);
const countedStore = messageTimes(`desk_widget_counted:${key}`);
const seenTimes = seenStore.read;
const markSeen = seenStore.mark;

/**
 * The page and time zone for the agents' customer card: the address without its query or fragment
 * (they may carry the site's own tokens), capped as the server caps it.
 */
function visitContext(): Record<string, string> {
  const context: Record<string, string> = {};
  if (location.protocol === "http:" || location.protocol === "https:")
    context.page_url = `${location.origin}${location.pathname}`.slice(0, 2000);
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && /^[A-Za-z0-9_+\-/]{1,64}$/.test(zone)) context.time_zone = zone;
  } catch {
    // no Intl time zone: the card shows none
  }
  return context;
}

/** The launcher's unread count, kept across page loads (a reload used to lose it). */
const unreadKey = `desk_widget_unread:${key}`;
function storedUnread(): number {
  try {
    const n = Number.parseInt(localStorage.getItem(unreadKey) ?? "0", 10);
    return Number.isFinite(n) && n > 0 ? Math.min(n, 99) : 0;
  } catch {
    return 0;
  }
}
function storeUnread(n: number): void {
  try {
    if (n > 0) localStorage.setItem(unreadKey, String(n));
    else localStorage.removeItem(unreadKey);
  } catch {
    // private mode: the count lasts as long as the page
  }
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { detail?: string; errors?: Array<{ location: string; message: string }> },
  ) {
    super(body.detail ?? `HTTP ${status}`);
  }
}

let token: string | null = null;

async function api<T>(method: string, path: string, body?: unknown, form?: FormData): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Visitor ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${base}/v1/widget${path}`, {
    method,
    headers,
    body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const json = (await res.json().catch(() => ({}))) as T & { detail?: string };
  if (!res.ok) throw new ApiError(res.status, json);
  return json;
}

async function start(): Promise<void> {
  if (!key || document.querySelector("[data-desk-widget]")) return;
  let config: Config;
  try {
    const locale = wantedLocale(script);
    config = await api<Config>(
      "GET",
      `/config?key=${encodeURIComponent(key)}${locale ? `&locale=${encodeURIComponent(locale)}` : ""}`,
    );
  } catch {
    return; // unknown key or widget turned off: show nothing
  }
  const tr = translator(config.locale, config.messages);
  const host = el("div", { "data-desk-widget": "", lang: config.locale });
  const root = host.attachShadow({ mode: "open" });
  // A constructed stylesheet is not an inline <style>, so a host page's strict CSP (no 'unsafe-inline') allows it.
  if ("adoptedStyleSheets" in root && typeof CSSStyleSheet.prototype.replaceSync === "function") {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
  } else {
    const style = document.createElement("style");
    style.textContent = css;
    root.append(style);
  }
  document.body.append(host);
  host.style.setProperty("--brand", config.brand_color);
  host.style.setProperty("--on-brand", brandText(config.brand_color));

  const identity = ((window as unknown as { deskWidget?: Identity }).deskWidget ?? {}) as Identity;
  let session: Session | null = null;
  let socket: WebSocket | null = null;
  let lastSeq: number | null = null;
  let retry = 0;
  let connects = 0;
  let current: string | null = null;
  let open = false;
  let opens = 0;
  let unread = 0;
  // The replies the badge counts, by conversation (kept with the count across page loads): opening the
  // chat acknowledges them, also when the page is left before the conversations have loaded.
  const count = countedStore.mark;
  const acknowledgeCounted = () => {
    for (const [id, at] of Object.entries(countedStore.read())) acknowledgedStore.mark(id, at);
    countedStore.clear();
  };
  let shown: Message[] = [];
  let pendingFiles: Attachment[] = [];
  let typingTimer = 0;
  let lastTypingSent = 0;

  // Launcher.
  const badge = el("span", { class: "badge", "aria-hidden": "true", hidden: "" });
  const launcher = el("button", {
    type: "button",
    class: "launcher",
    "aria-label": tr("open_chat"),
    "aria-expanded": "false",
  });
  if (config.launcher_url) launcher.append(el("img", { class: "launcher-img", src: config.launcher_url, alt: "" }));
  else
    launcher.innerHTML =
      '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z"/></svg>';
  launcher.append(badge);

  // Panel.
  const panel = el("div", {
    class: "panel",
    role: "dialog",
    "aria-label": tr("chat_with", { name: config.workspace_name }),
    hidden: "",
  });
  const header = el("header");
  if (config.avatar_url) header.append(el("img", { class: "avatar", src: config.avatar_url, alt: "" }));
  const titles = el("div", { class: "titles" });
  titles.append(el("h2", {}, config.workspace_name), el("p", {}, config.greeting));
  const close = el("button", { type: "button", class: "icon-btn", "aria-label": tr("close_chat") }, "×");
  header.append(titles, close);
  const body = el("div", { class: "body" });
  const typing = el("div", { class: "typing", "aria-live": "polite" });
  const footer = el("div");
  panel.append(header, body, typing, footer);
  const live = el("div", { class: "sr", "aria-live": "polite" });
  root.append(launcher, panel, live);

  const setUnread = (n: number) => {
    unread = Math.min(n, 99);
    storeUnread(unread);
    n = unread;
    badge.textContent = String(n);
    badge.hidden = n === 0;
    launcher.setAttribute("aria-label", n > 0 ? tr("open_chat_unread", { count: n }) : tr("open_chat"));
  };

  function toggle(next: boolean): void {
    open = next;
    panel.hidden = !next;
    launcher.setAttribute("aria-expanded", String(next));
    if (next) {
      opens += 1;
      setUnread(0);
      acknowledgeCounted();
      void show();
    } else launcher.focus();
  }
  launcher.addEventListener("click", () => toggle(!open));
  close.addEventListener("click", () => toggle(false));
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      toggle(false);
    }
  });

  let starting: Promise<Session> | null = null;
  /** Starts or resumes the visitor's session once (concurrent callers share it) and opens the gateway. */
  function ensureSession(extra: Identity = {}): Promise<Session> {
    if (session) return Promise.resolve(session);
    if (starting) return starting;
    const body: Record<string, string> = { key };
    const resume = stored();
    if (resume) body.visitor_token = resume;
    for (const [name, value] of Object.entries({ ...identity, ...extra })) if (value) body[name] = value;
    Object.assign(body, visitContext());
    // The language it speaks becomes the contact's, unless the contact has one already.
    body.locale = config.locale;
    starting = api<Session>("POST", "/session", body)
      .then((started) => {
        session = started;
        token = started.visitor_token;
        remember(token);
        if (!socket) connect(started.gateway_url);
        return started;
      })
      .finally(() => {
        starting = null;
      });
    return starting;
  }

  function connect(url: string): void {
    const ws = new WebSocket(lastSeq === null ? url : `${url}&since=${lastSeq}`);
    socket = ws;
    connects++;
    const reconnecting = connects > 1;
    ws.addEventListener("open", () => {
      retry = 0;
      // Catch up: since= replays what the gateway still has; the open thread is also read again
      // (deduplicated by id), which covers a socket that dropped before its first event.
      if (reconnecting && open && current) void refreshThread(current);
    });
    ws.addEventListener("message", (event) => onFrame(JSON.parse(String(event.data)) as Frame));
    ws.addEventListener("close", () => {
      if (socket !== ws) return;
      socket = null;
      // Reconnect with a fresh token and catch up on what was missed (since=).
      const wait = Math.min(30_000, 1000 * 2 ** retry++);
      window.setTimeout(() => {
        api<{ gateway_url: string }>("POST", "/gateway-token")
          .then((fresh) => connect(fresh.gateway_url))
          .catch(() => connect(url));
      }, wait);
    });
  }

  function onFrame(frame: Frame): void {
    if (typeof frame.seq === "number") lastSeq = Math.max(lastSeq ?? 0, frame.seq);
    if (frame.type === "chat.typing" && frame.ticket_id === current) {
      typing.textContent = tr("typing", { name: config.workspace_name });
      window.clearTimeout(typingTimer);
      typingTimer = window.setTimeout(() => {
        typing.textContent = "";
      }, 4000);
      return;
    }
    if (frame.type !== "message.created" || !frame.data) return;
    const message = frame.data.message;
    if (message.direction === "outbound") typing.textContent = "";
    if (open && current === frame.data.ticket_id) {
      addMessage(message);
      if (message.direction === "outbound")
        live.textContent = `${message.author.name || config.workspace_name}: ${message.body_text}`;
    } else if (message.direction === "outbound") {
      count(frame.data.ticket_id, message.created_at);
      setUnread(unread + 1);
      if (open && current === null) void show();
    }
  }

  function messageNode(message: Message): HTMLElement {
    const mine = message.direction === "inbound";
    const node = el("div", { class: `msg ${mine ? "in" : "out"}`, "data-id": message.id });
    const who = mine ? "You" : message.author.name || config.workspace_name;
    node.append(el("span", { class: "who" }, `${who} · ${formatTime(message.created_at, config.locale)}`));
    if (message.body_text) node.append(linkified(message.body_text));
    for (const file of message.attachments) {
      const link = el("a", { href: file.url, target: "_blank", rel: "noopener noreferrer" }, file.filename);
      node.append(el("br"), link);
      if (file.content_type.startsWith("image/"))
        node.append(el("img", { class: "thumb", src: file.url, alt: file.filename }));
    }
    return node;
  }

  let seenTimer = 0;
  let reportedSeen = "";
  /**
   * Tells Desk the newest agent reply on screen, so it is not mailed to the visitor later. Only
   * while the thread is open and the page visible: a reply in a background tab was not seen.
   */
  function reportSeen(): void {
    if (!open || !current || document.visibilityState !== "visible") return;
    const last = shown.findLast((m) => m.direction === "outbound");
    const mark = last ? `${current}:${last.id}` : "";
    if (!last || mark === reportedSeen) return;
    reportedSeen = mark;
    api("POST", `/conversations/${current}/seen`, { message_id: last.id }).catch(() => {
      reportedSeen = "";
    });
  }
  document.addEventListener("visibilitychange", reportSeen);

  function addMessage(message: Message): void {
    if (shown.some((m) => m.id === message.id)) return;
    shown.push(message);
    if (current) markSeen(current, message.created_at);
    if (message.direction === "outbound") {
      // A thread loads message by message: report once, after the last.
      window.clearTimeout(seenTimer);
      seenTimer = window.setTimeout(reportSeen, 200);
    }
    const list = body.querySelector(".msgs");
    list?.append(messageNode(message));
    body.scrollTop = body.scrollHeight;
  }

  async function refreshThread(id: string): Promise<void> {
    const thread = await api<{ data: Message[] }>("GET", `/conversations/${id}/messages`).catch(() => null);
    if (thread && current === id) for (const message of thread.data) addMessage(message);
  }

  function fail(error: unknown): void {
    const text = error instanceof ApiError ? (error.body.errors?.[0]?.message ?? error.message) : tr("unreachable");
    body.append(el("p", { class: "error", role: "alert" }, text));
  }

  async function show(): Promise<void> {
    footer.replaceChildren();
    body.replaceChildren();
    // A returning visitor resumes; a new one is asked for an email first when the workspace wants one.
    if (!session && (stored() || !config.require_email || identity.email)) {
      try {
        await ensureSession();
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 422)) return fail(error);
      }
    }
    if (!session) return captureEmail();
    if (current) return showThread(current);
    return showList();
  }

  function captureEmail(): void {
    const form = el("form", { class: "capture" });
    const emailInput = el("input", { type: "email", name: "email", required: "", autocomplete: "email" });
    const nameInput = el("input", { type: "text", name: "name", autocomplete: "name" });
    const emailLabel = el("label", {}, tr("email"));
    emailLabel.append(emailInput);
    const nameLabel = el("label", {}, tr("name_optional"));
    nameLabel.append(nameInput);
    form.append(
      el("p", {}, tr("email_prompt")),
      emailLabel,
      nameLabel,
      el("button", { type: "submit", class: "primary" }, tr("start_chat")),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      session = null;
      ensureSession({ email: emailInput.value, name: nameInput.value })
        .then(() => show())
        .catch(fail);
    });
    body.append(helpBar(), form);
    emailInput.focus();
  }

  /**
   * Self-service for every visitor, new or returning: search the help center's articles and a link
   * to it (nothing while the workspace's help center is off).
   */
  function helpBar(): HTMLElement {
    const wrap = el("div", { class: "help" });
    if (!config.help_center_url) return wrap;
    const form = el("form", { class: "help-search", role: "search" });
    const input = el("input", {
      type: "search",
      name: "q",
      maxlength: "200",
      "aria-label": tr("search_articles"),
      placeholder: tr("search_articles"),
    });
    const go = el("button", { type: "submit", class: "secondary" }, tr("search"));
    const results = el("ul", { class: "articles", "aria-label": tr("articles"), "aria-live": "polite" });
    form.append(input, go);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const q = input.value.trim();
      if (!q) return;
      api<{ data: Article[] }>(
        "GET",
        `/articles?key=${encodeURIComponent(key)}&q=${encodeURIComponent(q)}&locale=${encodeURIComponent(config.locale)}`,
      )
        .then((found) => {
          results.replaceChildren();
          if (found.data.length === 0) results.append(el("li", {}, tr("no_articles")));
          for (const article of found.data) {
            const li = el("li");
            li.append(el("a", { href: article.url, target: "_blank", rel: "noopener" }, article.title));
            results.append(li);
          }
        })
        .catch(() => {
          results.replaceChildren(el("li", {}, tr("search_unavailable")));
        });
    });
    const link = el("a", { href: config.help_center_url, target: "_blank", rel: "noopener" }, tr("help_center"));
    wrap.append(form, results, link);
    return wrap;
  }

  async function showList(): Promise<void> {
    const list = await api<{ data: Conversation[] }>("GET", "/conversations").catch((error: unknown) => {
      fail(error);
      return null;
    });
    if (!list) return;
    if (list.data.length === 0) return showThread(null);
    const bar = el("div", { class: "bar" });
    const fresh = el("button", { type: "button", class: "primary" }, tr("new_conversation"));
    fresh.addEventListener("click", () => void showThread(null));
    bar.append(fresh);
    const ul = el("ul", { class: "list", "aria-label": tr("your_conversations") });
    const seen = seenTimes();
    for (const conversation of list.data) {
      const item = el("button", { type: "button" });
      item.append(el("strong", {}, conversation.subject));
      // A message newer than the visitor last saw here: only the team writes while the visitor is away.
      if ((seen[conversation.id] ?? "") < conversation.last_message_at)
        item.append(el("span", { class: "new" }, tr("new_reply")));
      item.append(el("span", { class: "preview" }, conversation.last_message_preview));
      item.addEventListener("click", () => void showThread(conversation.id));
      const li = el("li");
      li.append(item);
      ul.append(li);
    }
    body.append(bar, helpBar(), ul);
    fresh.focus();
  }

  async function showThread(id: string | null): Promise<void> {
    current = id;
    shown = [];
    body.replaceChildren();
    footer.replaceChildren();
    typing.textContent = "";
    const bar = el("div", { class: "bar" });
    const back = el("button", { type: "button", class: "secondary" }, tr("all_conversations"));
    back.addEventListener("click", () => {
      current = null;
      void show();
    });
    bar.append(back);
    const msgs = el("div", { class: "msgs", role: "log", "aria-label": tr("messages") });
    body.append(bar, msgs);
    threadBar = bar;
    if (id) {
      bar.append(handoffButton(id));
      try {
        const thread = await api<{ data: Message[] }>("GET", `/conversations/${id}/messages`);
        for (const message of thread.data) addMessage(message);
      } catch (error) {
        fail(error);
      }
    } else {
      msgs.append(el("p", {}, config.greeting));
      body.insertBefore(helpBar(), msgs);
    }
    footer.append(composer());
  }

  let threadBar: HTMLElement | null = null;
  /** Asks for a person on the conversation (the assignee, or the team's admins, are notified). */
  function handoffButton(id: string): HTMLElement {
    const handoff = el("button", { type: "button", class: "secondary" }, tr("talk_to_person"));
    handoff.addEventListener("click", () => {
      api("POST", `/conversations/${id}/handoff`)
        .then(() => {
          live.textContent = tr("person_asked");
          handoff.textContent = tr("person_will_join");
          handoff.disabled = true;
        })
        .catch(fail);
    });
    return handoff;
  }

  function composer(): HTMLElement {
    const wrap = el("div");
    const files = el("div", { class: "files", "aria-live": "polite" });
    const row = el("div", { class: "composer" });
    const box = el("textarea", { rows: "1", "aria-label": tr("message"), placeholder: tr("write_message") });
    const fileInput = el("input", { type: "file", class: "sr", tabindex: "-1", "aria-hidden": "true" });
    const attach = el("button", { type: "button", class: "icon-btn attach", "aria-label": tr("attach") });
    attach.innerHTML =
      '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M16.5 6.5v10a4.5 4.5 0 0 1-9 0V5a3 3 0 0 1 6 0v10.5a1.5 1.5 0 0 1-3 0V6.5H9v9a3 3 0 0 0 6 0V5a4.5 4.5 0 0 0-9 0v11.5a6 6 0 0 0 12 0v-10z"/></svg>';
    const send = el("button", { type: "button", class: "primary" }, tr("send"));
    pendingFiles = [];
    attach.addEventListener("click", () => fileInput.click());
    fileInput.addEventListener("change", () => {
      const file = fileInput.files?.[0];
      if (!file) return;
      const form = new FormData();
      form.append("file", file);
      files.textContent = tr("uploading", { name: file.name });
      api<Attachment>("POST", "/attachments", undefined, form)
        .then((uploaded) => {
          pendingFiles.push(uploaded);
          files.textContent = tr("attached", { names: pendingFiles.map((f) => f.filename).join(", ") });
        })
        .catch((error: unknown) => {
          files.textContent = error instanceof Error ? error.message : tr("upload_failed");
        });
      fileInput.value = "";
    });
    const submit = () => {
      const text = box.value.trim();
      if (!text && pendingFiles.length === 0) return;
      const payload = { body: text, attachment_ids: pendingFiles.map((f) => f.id) };
      box.value = "";
      const sent = current
        ? api<Message>("POST", `/conversations/${current}/messages`, payload).then(addMessage)
        : api<{ conversation: Conversation; message: Message }>("POST", "/conversations", payload).then((created) => {
            current = created.conversation.id;
            threadBar?.append(handoffButton(current));
            addMessage(created.message);
          });
      sent
        .then(() => {
          pendingFiles = [];
          files.textContent = "";
        })
        .catch((error: unknown) => {
          box.value = text;
          fail(error);
        });
    };
    box.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        submit();
      }
    });
    box.addEventListener("input", () => {
      const now = Date.now();
      if (current && socket?.readyState === WebSocket.OPEN && now - lastTypingSent > 2500) {
        lastTypingSent = now;
        socket.send(JSON.stringify({ type: "chat.typing", ticket_id: current }));
      }
    });
    send.addEventListener("click", submit);
    row.append(attach, box, send);
    wrap.append(files, row, fileInput);
    window.setTimeout(() => box.focus(), 0);
    return wrap;
  }

  // A page's own "contact us" opens the chat: any element with data-desk-chat, or the #chat fragment.
  const openFromPage = () => {
    if (!open) toggle(true);
  };
  document.addEventListener("click", (event) => {
    const trigger = event.target instanceof Element ? event.target.closest("[data-desk-chat]") : null;
    if (!trigger) return;
    event.preventDefault();
    openFromPage();
  });
  window.addEventListener("hashchange", () => {
    if (location.hash === "#chat") openFromPage();
  });
  if (location.hash === "#chat") openFromPage();

  // A returning visitor reconnects at once, so replies sent while away raise the unread badge; the
  // count from before a reload comes back, or the conversations with replies the visitor has not seen.
  if (stored()) {
    setUnread(storedUnread());
    const opensBefore = opens;
    ensureSession()
      .then(() => api<{ data: Conversation[] }>("GET", "/conversations"))
      .then((list) => {
        const seen = seenTimes();
        const acknowledged = acknowledgedStore.read();
        const unseen = list.data.filter(
          (c) => (seen[c.id] ?? "") < c.last_message_at && (acknowledged[c.id] ?? "") < c.last_message_at,
        );
        for (const c of unseen) count(c.id, c.last_message_at);
        // Opened (and perhaps closed again) while this was on its way: the visitor has acknowledged these.
        if (opens > opensBefore) acknowledgeCounted();
        else if (unseen.length > unread) setUnread(unseen.length);
      })
      .catch(() => undefined);
  }
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => void start());
else void start();
