import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../../lib/api/client";
import { membersKeys, useMembers } from "../../lib/resources/members";
import { useAuth } from "../../lib/api/session";
import { type Availability, INVITABLE_ROLES, type Invitation, type Role } from "../../lib/api/types";
import { Avatar, timeAgo } from "../../lib/ui/bits";
import { Field, FormError, formValues } from "../../lib/ui/form";
import { Empty, ErrorBox, errorText, Loading } from "../../lib/ui/states";
import { useCrud } from "../kit/crud";
import { dateTime, relativeTime, withArticle } from "../../lib/words";
import { invitationsKeys } from "./team.queries";

/** What happened to an invitation's mail, said plainly: an outbox-only server mails nobody. */
type Shared = {
  email: string;
  role: string;
  url: string;
  via: "relay" | "outbox";
  action: "created" | "resent" | "copied";
};

function sharedText(shared: Shared): string {
  const who = `${shared.email} (${withArticle(shared.role)})`;
  if (shared.action === "copied") return `Invitation link for ${who}:`;
  if (shared.via === "outbox")
    return `Not emailed to ${who}: no mail relay is configured (DESK_SMTP_URL), so copy the link and send it yourself:`;
  return `${shared.action === "resent" ? "Emailed again" : "Emailed"} to ${who}. The link:`;
}

/** Copies text, falling back to a selected field on browsers without the async clipboard. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export default function MembersSettings() {
  const members = useMembers();
  const auth = useAuth();
  const client = useQueryClient();
  const invitations = useCrud<Invitation>(invitationsKeys.list, "/invitations");
  const [shared, setShared] = useState<Shared | null>(null);
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  const share = (inv: Invitation, action: Shared["action"]) => {
    setCopied(null);
    setShared(
      inv.url ? { email: inv.email, role: inv.role, url: inv.url, via: inv.mail_via ?? "outbox", action } : null,
    );
  };
  const again = useMutation({
    mutationFn: ({ id, action }: { id: string; action: "resend" | "link" }) =>
      api<Invitation>(`/invitations/${id}/${action}`, { method: "POST" }),
    onSuccess: async (inv, { action }) => {
      share(inv, action === "resend" ? "resent" : "copied");
      if (action === "link" && inv.url) setCopied((await copyText(inv.url)) ? "yes" : "no");
      client.invalidateQueries({ queryKey: invitationsKeys.list });
    },
  });
  const refresh = () => client.invalidateQueries({ queryKey: membersKeys.list });
  const change = useMutation({
    mutationFn: ({ id, role }: { id: string; role: Role }) =>
      api(`/members/${id}`, { method: "PATCH", body: { role } }),
    onSuccess: refresh,
  });
  const availability = useMutation({
    mutationFn: ({
      id,
      body,
    }: {
      id: string;
      body: { availability?: Availability; max_open_tickets?: number | null };
    }) => api(`/members/${id}/availability`, { method: "PATCH", body }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/members/${id}`, { method: "DELETE" }),
    onSuccess: refresh,
  });

  const invite = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    invitations.create.mutate(formValues(form), {
      onSuccess: (inv) => {
        share(inv, "created");
        form.reset();
      },
    });
  };

  return (
    <div className="settings-page">
      <h1>Members</h1>
      {members.isPending ? (
        <Loading />
      ) : members.isError ? (
        <ErrorBox error={members.error} retry={() => members.refetch()} />
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Role</th>
              <th>Availability</th>
              <th>Open tickets</th>
              <th>Cap</th>
              <th>Last seen</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {members.data!.map((m) => (
              <tr key={m.user.id} data-member={m.user.email}>
                <td>
                  <span className="cell-name">
                    <Avatar name={m.user.name} url={m.user.avatar_url} size={22} />
                    {m.user.name}
                    {m.user.id === auth.user?.id && <span className="muted small">(you)</span>}
                  </span>
                </td>
                <td>{m.user.email}</td>
                <td>
                  {m.role === "owner" ? (
                    "Owner"
                  ) : (
                    <select
                      aria-label={`Role of ${m.user.email}`}
                      value={m.role}
                      onChange={(e) => change.mutate({ id: m.user.id, role: e.target.value as Role })}
                    >
                      {INVITABLE_ROLES.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </select>
                  )}
                </td>
                <td>
                  <select
                    aria-label={`Availability of ${m.user.email}`}
                    value={m.availability}
                    title={m.presence !== m.availability ? `Shown as ${m.presence} (no activity)` : undefined}
                    onChange={(e) =>
                      availability.mutate({ id: m.user.id, body: { availability: e.target.value as Availability } })
                    }
                  >
                    <option value="online">Online</option>
                    <option value="away">Away</option>
                    <option value="offline">Offline</option>
                  </select>
                </td>
                <td className="num">{m.open_tickets}</td>
                <td>
                  {m.role === "viewer" ? (
                    <span className="muted">—</span>
                  ) : (
                    <input
                      key={`${m.user.id}-${m.max_open_tickets ?? ""}`}
                      className="cap-input"
                      type="number"
                      min={1}
                      max={1000}
                      placeholder="None"
                      aria-label={`Open ticket cap of ${m.user.email}`}
                      defaultValue={m.max_open_tickets ?? ""}
                      onBlur={(e) => {
                        const value = e.target.value.trim() === "" ? null : Number(e.target.value);
                        if (value !== m.max_open_tickets)
                          availability.mutate({ id: m.user.id, body: { max_open_tickets: value } });
                      }}
                    />
                  )}
                </td>
                <td className="muted">{m.last_seen_at ? timeAgo(m.last_seen_at) : "—"}</td>
                <td>
                  {m.role !== "owner" && m.user.id !== auth.user?.id && (
                    <button
                      type="button"
                      className="btn btn-small btn-danger"
                      onClick={() => confirm(`Remove ${m.user.name}?`) && remove.mutate(m.user.id)}
                    >
                      Remove
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(change.isError || remove.isError || availability.isError) && (
        <div className="form-error">{errorText(change.error ?? remove.error ?? availability.error)}</div>
      )}

      <h2>Invite people</h2>
      <form className="inline-form" onSubmit={invite} noValidate>
        <Field label="Email" name="email" error={invitations.create.error}>
          <input name="email" type="email" placeholder="teammate@example.com" />
        </Field>
        <Field label="Role" name="role" error={invitations.create.error}>
          <select name="role" defaultValue="agent">
            {INVITABLE_ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" className="btn btn-primary" disabled={invitations.create.isPending}>
          Send invitation
        </button>
      </form>
      <FormError error={invitations.create.error} fields={["email", "role"]} />
      {shared && (
        <div className="secret" role="status">
          <p>{sharedText(shared)}</p>
          <code>{shared.url}</code>{" "}
          <button
            type="button"
            className="btn btn-small"
            onClick={async () => setCopied((await copyText(shared.url)) ? "yes" : "no")}
          >
            Copy link
          </button>{" "}
          {copied === "yes" && <span className="muted">Copied.</span>}
          {copied === "no" && <span className="muted">Select the link and copy it.</span>}
        </div>
      )}
      {again.isError && <div className="form-error">{errorText(again.error)}</div>}
      <h2>Pending invitations</h2>
      {invitations.list.isPending ? (
        <Loading />
      ) : invitations.list.isError ? (
        <ErrorBox error={invitations.list.error} />
      ) : invitations.list.data.length === 0 ? (
        <Empty title="No pending invitations" />
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Email</th>
              <th>Role</th>
              <th>Invited by</th>
              <th>Expires</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {invitations.list.data.map((i) => (
              <tr key={i.id}>
                <td>{i.email}</td>
                <td>{i.role}</td>
                <td>{i.invited_by?.name ?? "—"}</td>
                <td className="muted">
                  <time dateTime={i.expires_at} title={dateTime(i.expires_at)}>
                    {relativeTime(i.expires_at)}
                  </time>
                </td>
                <td className="row-actions">
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={`Copy link for ${i.email}`}
                    onClick={() => again.mutate({ id: i.id, action: "link" })}
                    disabled={again.isPending}
                  >
                    Copy link
                  </button>{" "}
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={`Resend to ${i.email}`}
                    onClick={() => again.mutate({ id: i.id, action: "resend" })}
                    disabled={again.isPending}
                  >
                    Resend
                  </button>{" "}
                  <button type="button" className="btn btn-small" onClick={() => invitations.remove.mutate(i.id)}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
