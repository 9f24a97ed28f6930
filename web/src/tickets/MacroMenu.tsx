import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "../lib/api/client";
import type { Macro, Ticket } from "../lib/api/types";
import { useMacros } from "../lib/resources/macros";
import { errorText } from "../lib/ui/states";
import { t } from "../lib/i18n/i18n";
import { ticketKeys } from "./tickets.queries";
import { macrosKeys } from "../lib/resources/macros";

/**
 * Applies a macro to one ticket or to each of many, one after another (each is the person's own
 * change, as if made by hand). Answers how many were applied and the first error met.
 */
export function useApplyMacro(onDone?: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ macro, ticketIds }: { macro: Macro; ticketIds: string[] }) => {
      let applied = 0;
      for (const id of ticketIds) {
        const ticket = await api<Ticket>(`/tickets/${id}/macros/${macro.id}`, { method: "POST" });
        client.setQueryData(ticketKeys.one(ticket.id), ticket);
        client.setQueryData(ticketKeys.one(String(ticket.number)), ticket);
        applied++;
      }
      return applied;
    },
    onSettled: (_applied, _error, { ticketIds }) => {
      client.invalidateQueries({ queryKey: ticketKeys.lists });
      client.invalidateQueries({ queryKey: ticketKeys.counts });
      client.invalidateQueries({ queryKey: macrosKeys.list });
      for (const id of ticketIds) client.invalidateQueries({ queryKey: ticketKeys.timeline(id) });
    },
    onSuccess: () => onDone?.(),
  });
}

/** The macro picker: in the composer (one ticket) and in the inbox's bulk bar (the selected tickets). */
export function MacroMenu({ ticketIds, onDone }: { ticketIds: string[]; onDone?: () => void }) {
  const macros = useMacros();
  const apply = useApplyMacro(onDone);
  const [last, setLast] = useState<string | null>(null);
  if (!macros.data?.length) return null;
  return (
    <span className="macro-menu">
      <select
        aria-label={t("tickets.applyMacro")}
        value=""
        disabled={apply.isPending}
        onChange={(e) => {
          const macro = macros.data.find((m) => m.id === e.target.value);
          if (!macro) return;
          setLast(macro.name);
          apply.mutate({ macro, ticketIds });
        }}
      >
        <option value="">{t("tickets.macrosPick")}</option>
        {macros.data.map((m) => (
          <option key={m.id} value={m.id}>
            {m.shared ? m.name : t("tickets.macroPersonal", { name: m.name })}
          </option>
        ))}
      </select>
      <span className="sr-only" role="status">
        {apply.isSuccess && last ? t("tickets.macroApplied", { name: last }) : ""}
      </span>
      {apply.isError && (
        <span className="field-error" role="alert">
          {errorText(apply.error)}
        </span>
      )}
    </span>
  );
}
