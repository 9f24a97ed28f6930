import { ApiError } from "../lib/api/client";
import { useContactTickets } from "./tickets.queries";
import { VisitDetails } from "../contacts/VisitInfo";
import { personName } from "../lib/people";
import { useCustomFields } from "../lib/resources/custom-fields";
import { useMembers } from "../lib/resources/members";
import { useTeams } from "../lib/resources/teams";
import { PRIORITIES, SEVERITIES, STATUSES, type Ticket } from "../lib/api/types";
import { Link } from "../lib/router/Link";
import { Avatar, StatusPill, statusLabel } from "../lib/ui/bits";
import { FieldInput } from "../lib/ui/FieldInput";
import { LabelPicker } from "../lib/ui/LabelPicker";
import { errorText } from "../lib/ui/states";
import { Followers } from "./Followers";
import { SlaClock } from "./SlaClock";
import { usePatchTicket } from "./ticket-data";
import { TicketAi } from "../ai/TicketAi";
import { useAiOn } from "../ai/ai.queries";
import { t } from "../lib/i18n/i18n";

const toLocalInput = (iso: string | null) =>
  iso ? new Date(new Date(iso).getTime() - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 16) : "";

export function TicketSidebar({ ticket, readOnly }: { ticket: Ticket; readOnly: boolean }) {
  const patch = usePatchTicket(ticket);
  const members = useMembers();
  const teams = useTeams();
  const fields = useCustomFields("ticket");
  const aiOn = useAiOn();
  const save = (body: Record<string, unknown>) => patch.mutate(body);
  const fieldError = (key: string) => (patch.error instanceof ApiError ? patch.error.at(`fields.${key}`) : undefined);
  const generalError =
    patch.error &&
    !(
      patch.error instanceof ApiError &&
      patch.error.errors.some((e) => e.location.startsWith("body.fields.")) &&
      patch.error.code !== "field_required"
    );

  return (
    <aside className="ticket-side" aria-label={t("tickets.ticketDetails")}>
      {patch.isError && generalError && (
        <div className="form-error" role="alert">
          {errorText(patch.error)}
        </div>
      )}
      {patch.error instanceof ApiError && patch.error.code === "field_required" && (
        <div className="form-error" role="alert">
          {patch.error.detail}
        </div>
      )}
      <div className="side-grid">
        <label className="side-label" htmlFor="t-status">
          {t("tickets.status")}
        </label>
        <select
          id="t-status"
          disabled={readOnly}
          value={ticket.status}
          onChange={(e) => save({ status: e.target.value })}
        >
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s)}
            </option>
          ))}
        </select>
        <label className="side-label" htmlFor="t-priority">
          {t("tickets.priority")}
        </label>
        <select
          id="t-priority"
          disabled={readOnly}
          value={ticket.priority}
          onChange={(e) => save({ priority: e.target.value })}
        >
          {PRIORITIES.map((p) => (
            <option key={p} value={p}>
              {statusLabel(p)}
            </option>
          ))}
        </select>
        <label className="side-label" htmlFor="t-severity">
          {t("tickets.severity")}
        </label>
        <select
          id="t-severity"
          disabled={readOnly}
          value={ticket.severity ?? ""}
          onChange={(e) => save({ severity: e.target.value || null })}
        >
          <option value="">{t("common.none")}</option>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {s.toUpperCase()}
            </option>
          ))}
        </select>
        <label className="side-label" htmlFor="t-assignee">
          {t("tickets.assignee")}
        </label>
        <span className="assignee-pick">
          {ticket.assignee && <Avatar name={ticket.assignee.name} url={ticket.assignee.avatar_url} size={22} />}
          <select
            id="t-assignee"
            disabled={readOnly}
            value={ticket.assignee?.id ?? ""}
            onChange={(e) => save({ assignee_id: e.target.value || null })}
          >
            <option value="">{t("tickets.unassigned")}</option>
            {members.data
              ?.filter((m) => m.role !== "viewer" || m.user.id === ticket.assignee?.id)
              .map((m) => (
                <option key={m.user.id} value={m.user.id}>
                  {m.user.name}
                </option>
              ))}
          </select>
        </span>
        <label className="side-label" htmlFor="t-team">
          {t("tickets.team")}
        </label>
        <select
          id="t-team"
          disabled={readOnly}
          value={ticket.team_id ?? ""}
          onChange={(e) => save({ team_id: e.target.value || null })}
        >
          <option value="">{t("tickets.noTeam")}</option>
          {teams.data?.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </select>
        <label className="side-label" htmlFor="t-snooze">
          {t("tickets.snoozeUntil")}
        </label>
        <input
          id="t-snooze"
          type="datetime-local"
          disabled={readOnly}
          value={toLocalInput(ticket.snoozed_until)}
          onChange={(e) => save({ snoozed_until: e.target.value ? new Date(e.target.value).toISOString() : null })}
        />
      </div>

      <SlaClock ticket={ticket} />

      <Followers ticket={ticket} readOnly={readOnly} />

      <h3>{t("tickets.labels")}</h3>
      <LabelPicker
        tags={ticket.tags}
        kind="tickets"
        disabled={readOnly}
        onAdd={(name) => save({ add_tags: [name] })}
        onRemove={(name) => save({ remove_tags: [name] })}
      />

      {!!fields.data?.length && <h3>{t("tickets.fields")}</h3>}
      {fields.data?.map((f) => (
        <FieldInput
          key={f.id}
          field={f}
          value={ticket.fields?.[f.key]}
          disabled={readOnly}
          error={fieldError(f.key)}
          onSave={(value) => save({ fields: { [f.key]: value } })}
        />
      ))}

      <label className="check spam-toggle">
        <input
          type="checkbox"
          disabled={readOnly}
          checked={ticket.spam}
          onChange={(e) => save({ spam: e.target.checked })}
        />{" "}
        {t("tickets.spam")} <kbd>#</kbd>
      </label>

      {aiOn && <TicketAi ticket={ticket} readOnly={readOnly} />}
      {ticket.csat && <CsatCard csat={ticket.csat} />}

      {ticket.contact && <ContactCard ticket={ticket} />}
    </aside>
  );
}

/** The customer's rating from the CSAT email (the latest one when they rated twice). */
function CsatCard({ csat }: { csat: NonNullable<Ticket["csat"]> }) {
  const good = csat.score >= 4;
  return (
    <section className="csat-card" aria-labelledby="csat-heading">
      <h3 id="csat-heading">{t("tickets.satisfaction")}</h3>
      <p>
        <span className={`csat-score ${good ? "good" : csat.score <= 2 ? "bad" : "neutral"}`}>{csat.score}/5</span>{" "}
        {t("tickets.csatWord", { score: String(csat.score) })}
      </p>
      {csat.comment && <blockquote className="csat-comment">{csat.comment}</blockquote>}
    </section>
  );
}

function ContactCard({ ticket }: { ticket: Ticket }) {
  const contact = ticket.contact!;
  const tickets = useContactTickets(contact.id);
  const others = tickets.data?.filter((other) => other.id !== ticket.id) ?? [];
  return (
    <section className="contact-card">
      <h3>{t("tickets.customer")}</h3>
      <div className="contact-head">
        <Avatar name={personName(contact.name, contact.email)} url={contact.avatar_url} size={32} />
        <div>
          <Link to={`/contacts/${contact.id}`}>
            <strong>{personName(contact.name, contact.email)}</strong>
          </Link>
          {contact.email && <div className="muted small">{contact.email}</div>}
        </div>
      </div>
      <VisitDetails contactId={contact.id} enabled={ticket.channel === "chat"} />
      <div className="side-label">{t("tickets.otherTickets")}</div>
      {tickets.isPending ? (
        <div className="muted small">{t("common.loading")}</div>
      ) : tickets.isError ? (
        <div className="muted small">{errorText(tickets.error)}</div>
      ) : others.length === 0 ? (
        <div className="muted small">{t("common.none")}</div>
      ) : (
        <ul className="mini-list">
          {others.slice(0, 8).map((other) => (
            <li key={other.id}>
              <Link to={`/tickets/${other.number}`}>
                #{other.number} {other.subject}
              </Link>{" "}
              <StatusPill status={other.status} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
