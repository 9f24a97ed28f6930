import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../../lib/api/client";
import { membersKeys, useMembers } from "../../lib/resources/members";
import { useAuth } from "../../lib/api/session";
import { type Availability, INVITABLE_ROLES, type Invitation, type Role } from "../../lib/api/types";
import { formatDateTime, relativeTime, t } from "../../lib/i18n/i18n";
import { Avatar, timeAgo } from "../../lib/ui/bits";
import { Field, FormError, formValues } from "../../lib/ui/form";
import { Empty, ErrorBox, errorText, Loading } from "../../lib/ui/states";
import { useCrud } from "../kit/crud";
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
  const values = { email: shared.email, role: t("settings.membersInviteeRole", { role: shared.role }) };
  if (shared.action === "copied") return t("settings.membersLinkFor", values);
  if (shared.via === "outbox") return t("settings.membersNotEmailed", values);
  return t(shared.action === "resent" ? "settings.membersEmailedAgain" : "settings.membersEmailed", values);
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
      <h1>{t("settings.navMembers")}</h1>
      {members.isPending ? (
        <Loading />
      ) : members.isError ? (
        <ErrorBox error={members.error} retry={() => members.refetch()} />
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>{t("settings.name")}</th>
              <th>{t("settings.membersEmail")}</th>
              <th>{t("settings.membersRole")}</th>
              <th>{t("settings.membersAvailability")}</th>
              <th>{t("settings.membersOpenTickets")}</th>
              <th>{t("settings.membersCap")}</th>
              <th>{t("settings.membersLastSeen")}</th>
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
                    {m.user.id === auth.user?.id && <span className="muted small">{t("settings.membersYou")}</span>}
                  </span>
                </td>
                <td>{m.user.email}</td>
                <td>
                  {m.role === "owner" ? (
                    t("settings.roleOwner")
                  ) : (
                    <select
                      aria-label={t("settings.membersRoleOf", { email: m.user.email })}
                      value={m.role}
                      onChange={(e) => change.mutate({ id: m.user.id, role: e.target.value as Role })}
                    >
                      {INVITABLE_ROLES.map((r) => (
                        <option key={r} value={r}>
                          {t("settings.roleName", { role: r })}
                        </option>
                      ))}
                    </select>
                  )}
                </td>
                <td>
                  <select
                    aria-label={t("settings.membersAvailabilityOf", { email: m.user.email })}
                    value={m.availability}
                    title={
                      m.presence !== m.availability ? t("settings.membersShownAs", { presence: m.presence }) : undefined
                    }
                    onChange={(e) =>
                      availability.mutate({ id: m.user.id, body: { availability: e.target.value as Availability } })
                    }
                  >
                    <option value="online">{t("settings.availabilityOnline")}</option>
                    <option value="away">{t("settings.availabilityAway")}</option>
                    <option value="offline">{t("settings.availabilityOffline")}</option>
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
                      placeholder={t("common.none")}
                      aria-label={t("settings.membersCapOf", { email: m.user.email })}
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
                      onClick={() =>
                        confirm(t("settings.membersRemoveQuestion", { name: m.user.name })) && remove.mutate(m.user.id)
                      }
                    >
                      {t("settings.remove")}
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

      <h2>{t("settings.membersInvite")}</h2>
      <form className="inline-form" onSubmit={invite} noValidate>
        <Field label={t("settings.membersEmail")} name="email" error={invitations.create.error}>
          <input name="email" type="email" placeholder="teammate@example.com" />
        </Field>
        <Field label={t("settings.membersRole")} name="role" error={invitations.create.error}>
          <select name="role" defaultValue="agent">
            {INVITABLE_ROLES.map((r) => (
              <option key={r} value={r}>
                {t("settings.roleName", { role: r })}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" className="btn btn-primary" disabled={invitations.create.isPending}>
          {t("settings.membersSendInvitation")}
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
            {t("settings.membersCopyLink")}
          </button>{" "}
          {copied === "yes" && <span className="muted">{t("settings.copiedSentence")}</span>}
          {copied === "no" && <span className="muted">{t("settings.membersSelectLink")}</span>}
        </div>
      )}
      {again.isError && <div className="form-error">{errorText(again.error)}</div>}
      <h2>{t("settings.membersPending")}</h2>
      {invitations.list.isPending ? (
        <Loading />
      ) : invitations.list.isError ? (
        <ErrorBox error={invitations.list.error} />
      ) : invitations.list.data.length === 0 ? (
        <Empty title={t("settings.membersNoPending")} />
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>{t("settings.membersEmail")}</th>
              <th>{t("settings.membersRole")}</th>
              <th>{t("settings.membersInvitedBy")}</th>
              <th>{t("settings.membersExpires")}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {invitations.list.data.map((i) => (
              <tr key={i.id}>
                <td>{i.email}</td>
                <td>{t("settings.roleName", { role: i.role })}</td>
                <td>{i.invited_by?.name ?? "—"}</td>
                <td className="muted">
                  <time dateTime={i.expires_at} title={formatDateTime(i.expires_at)}>
                    {relativeTime(i.expires_at)}
                  </time>
                </td>
                <td className="row-actions">
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={t("settings.membersCopyLinkFor", { email: i.email })}
                    onClick={() => again.mutate({ id: i.id, action: "link" })}
                    disabled={again.isPending}
                  >
                    {t("settings.membersCopyLink")}
                  </button>{" "}
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={t("settings.membersResendTo", { email: i.email })}
                    onClick={() => again.mutate({ id: i.id, action: "resend" })}
                    disabled={again.isPending}
                  >
                    {t("settings.membersResend")}
                  </button>{" "}
                  <button type="button" className="btn btn-small" onClick={() => invitations.remove.mutate(i.id)}>
                    {t("settings.revoke")}
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
