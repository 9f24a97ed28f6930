import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { api } from "../lib/api/client";
import { canWrite, useRole } from "../lib/api/session";
import type { Ticket } from "../lib/api/types";
import { goBack, navigate } from "../lib/router/router";
import { Modal, StatusPill, typingInField } from "../lib/ui/bits";
import { Field, FormError, formValues } from "../lib/ui/form";
import { ErrorBox, Loading } from "../lib/ui/states";
import { Composer, type ComposerHandle } from "./Composer";
import { PresenceBar } from "./PresenceBar";
import { ChatTyping } from "./ChatTyping";
import { SnoozedMark } from "./SnoozedMark";
import { attachmentRefresher, lastListNumbers, usePatchTicket, useTicket, useTimeline } from "./ticket-data";
import { TicketSidebar } from "./TicketSidebar";
import { Timeline } from "./Timeline";
import { useMarkSeen } from "../inbox/reads";
import { ticketKeys } from "./tickets.queries";
import { t } from "../lib/i18n/i18n";

export function TicketPage({ number }: { number: string }) {
  const ticket = useTicket(number);
  const timeline = useTimeline(ticket.data?.id);
  useMarkSeen(ticket.data);
  const role = useRole();
  const readOnly = !canWrite(role);
  const patch = usePatchTicket(ticket.data);
  const composer = useRef<ComposerHandle>(null);
  const [merging, setMerging] = useState(false);
  const refetchTimeline = timeline.refetch;
  const refreshLinks = useMemo(() => attachmentRefresher(() => refetchTimeline()), [refetchTimeline]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typingInField() || e.metaKey || e.ctrlKey || e.altKey || !ticket.data) return;
      const index = lastListNumbers.indexOf(ticket.data.number);
      if (e.key === "j" && index >= 0 && index + 1 < lastListNumbers.length)
        navigate(`/tickets/${lastListNumbers[index + 1]}`);
      else if (e.key === "k" && index > 0) navigate(`/tickets/${lastListNumbers[index - 1]}`);
      else if (e.key === "r" && !readOnly) composer.current?.focus("reply");
      else if (e.key === "n" && !readOnly) composer.current?.focus("note");
      else if (e.key === "e" && !readOnly) patch.mutate({ status: "solved" });
      else if (e.key === "#" && !readOnly) patch.mutate({ spam: !ticket.data.spam });
      else if (e.key === "Escape" && !e.defaultPrevented) goBack("/inbox/unassigned");
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [ticket.data, readOnly, patch]);

  if (ticket.isPending) return <Loading label={t("tickets.loadingTicket")} />;
  if (ticket.isError) return <ErrorBox error={ticket.error} retry={() => ticket.refetch()} />;
  const tk = ticket.data;
  return (
    <section className="ticket-page">
      <div className="ticket-center">
        <header className="page-head ticket-head">
          <button
            type="button"
            className="btn-icon"
            onClick={() => goBack("/inbox/unassigned")}
            aria-label={t("tickets.back")}
            title={t("tickets.back")}
          >
            ←
          </button>
          <h1 className="ticket-title">
            <span className="muted">#{tk.number}</span> {tk.subject}
          </h1>
          <StatusPill status={tk.status} />
          <SnoozedMark until={tk.snoozed_until} />
          {tk.spam && <span className="pill pill-spam">{t("tickets.spam")}</span>}
          <div className="grow" />
          {!readOnly && (
            <>
              <button type="button" className="btn btn-small" onClick={() => setMerging(true)}>
                {t("tickets.mergeOpen")}
              </button>
              <button
                type="button"
                className="btn btn-small"
                disabled={tk.status === "solved" || patch.isPending}
                onClick={() => patch.mutate({ status: "solved" })}
                title={t("tickets.solveTitle")}
              >
                {t("tickets.solve")} <kbd>e</kbd>
              </button>
            </>
          )}
        </header>
        <PresenceBar ticketId={tk.id} />
        {tk.channel === "chat" && <ChatTyping ticketId={tk.id} name={tk.contact?.name || tk.contact?.email || ""} />}
        {patch.isError && (
          <div className="banner-error">
            <FormError error={patch.error} />
          </div>
        )}
        {/* A scrolling region keyboard users can reach and scroll with the arrow keys (WCAG 2.1.1). */}
        <section className="timeline-scroll" tabIndex={0} aria-label={t("tickets.conversation")}>
          {timeline.isPending ? (
            <Loading label={t("tickets.loadingConversation")} />
          ) : timeline.isError ? (
            <ErrorBox error={timeline.error} retry={() => timeline.refetch()} />
          ) : timeline.data.length === 0 ? (
            <div className="state state-empty">{t("tickets.noMessages")}</div>
          ) : (
            <Timeline items={timeline.data} refresh={refreshLinks} />
          )}
        </section>
        {!readOnly && <Composer key={tk.id} ref={composer} ticket={tk} />}
      </div>
      <TicketSidebar ticket={tk} readOnly={readOnly} />
      {merging && <MergeDialog ticket={tk} onClose={() => setMerging(false)} />}
    </section>
  );
}

function MergeDialog({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const client = useQueryClient();
  const merge = useMutation({
    mutationFn: (into: string) =>
      api<Ticket>(`/tickets/${ticket.id}/merge`, { body: { into_id: into.replace(/^#/, "") } }),
    onSuccess: (into) => {
      client.invalidateQueries({ queryKey: ticketKeys.lists });
      client.invalidateQueries({ queryKey: ticketKeys.counts });
      onClose();
      navigate(`/tickets/${into.number}`);
    },
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    merge.mutate(formValues(e.currentTarget).into);
  };
  return (
    <Modal title={t("tickets.mergeTitle", { number: String(ticket.number) })} onClose={onClose}>
      <form className="stack" onSubmit={submit}>
        <p className="muted">{t("tickets.mergeExplain")}</p>
        <Field label={t("tickets.mergeTarget")} name="into_id" error={merge.error}>
          <input name="into" placeholder="#123" autoFocus required />
        </Field>
        <FormError error={merge.error} fields={["into_id"]} />
        <div className="actions">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="btn btn-primary" disabled={merge.isPending}>
            {t("tickets.merge")}
          </button>
        </div>
      </form>
    </Modal>
  );
}
