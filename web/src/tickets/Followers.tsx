import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../lib/api/client";
import { useAuth } from "../lib/api/session";
import type { Ticket } from "../lib/api/types";
import { useMembers } from "../lib/resources/members";
import { Avatar } from "../lib/ui/bits";
import { errorText } from "../lib/ui/states";
import { t } from "../lib/i18n/i18n";
import { ticketKeys } from "./tickets.queries";

/**
 * Who follows the ticket, with Follow/Unfollow for oneself and a picker to add a teammate.
 * Followers get the assignee's notifications; the ticket.updated event refreshes the list.
 */
export function Followers({ ticket, readOnly }: { ticket: Ticket; readOnly: boolean }) {
  const me = useAuth().user?.id ?? null;
  const members = useMembers();
  const client = useQueryClient();
  const change = useMutation({
    mutationFn: ({ userId, follow }: { userId: string; follow: boolean }) =>
      api<null>(`/tickets/${ticket.id}/followers/${userId}`, { method: follow ? "PUT" : "DELETE" }),
    onSuccess: () => {
      client.invalidateQueries({ queryKey: ticketKeys.one(ticket.id) });
      client.invalidateQueries({ queryKey: ticketKeys.one(String(ticket.number)) });
      client.invalidateQueries({ queryKey: ticketKeys.lists });
    },
  });
  const following = !!me && ticket.followers.some((f) => f.id === me);
  const others = (members.data ?? []).filter((m) => !ticket.followers.some((f) => f.id === m.user.id));
  return (
    <section className="followers" aria-labelledby={`followers-${ticket.id}`}>
      <h3 id={`followers-${ticket.id}`}>{t("tickets.followers")}</h3>
      {ticket.followers.length === 0 ? (
        <p className="muted small">{t("tickets.noFollowers")}</p>
      ) : (
        <ul className="follower-list">
          {ticket.followers.map((f) => (
            <li key={f.id}>
              <Avatar name={f.name} url={f.avatar_url} size={20} /> <span>{f.name}</span>
              {!readOnly && f.id !== me && (
                <button
                  type="button"
                  className="btn btn-small btn-ghost"
                  onClick={() => change.mutate({ userId: f.id, follow: false })}
                >
                  {t("tickets.removeFollower", { name: f.name })}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {!readOnly && me && (
        <div className="inline-form">
          <button
            type="button"
            className="btn btn-small"
            aria-pressed={following}
            disabled={change.isPending}
            onClick={() => change.mutate({ userId: me, follow: !following })}
          >
            {following ? t("tickets.unfollow") : t("tickets.follow")}
          </button>
          {others.length > 0 && (
            <select
              aria-label={t("tickets.addFollower")}
              value=""
              onChange={(e) => e.target.value && change.mutate({ userId: e.target.value, follow: true })}
            >
              <option value="">{t("tickets.addFollowerPick")}</option>
              {others.map((m) => (
                <option key={m.user.id} value={m.user.id}>
                  {m.user.name}
                </option>
              ))}
            </select>
          )}
        </div>
      )}
      {change.isError && (
        <p className="field-error" role="alert">
          {errorText(change.error)}
        </p>
      )}
    </section>
  );
}
