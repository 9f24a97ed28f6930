import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { api } from "../lib/api/client";
import type { View, ViewFilters } from "../lib/api/types";
import { navigate } from "../lib/router/router";
import { Modal } from "../lib/ui/bits";
import { Field, FormError, formValues } from "../lib/ui/form";
import { t } from "../lib/i18n/i18n";
import { describeViewFilters } from "./view-filters-text";
import { viewsKeys } from "../lib/resources/views";
import { ticketKeys } from "../tickets/tickets.queries";

/** Names the inbox's current filters and saves them as a View (POST /v1/views), then opens it. */
export function SaveView({
  filters,
  dropped,
  onClose,
}: {
  filters: ViewFilters;
  dropped: string[];
  onClose: () => void;
}) {
  const client = useQueryClient();
  const create = useMutation({
    mutationFn: (body: { name: string; shared: boolean; filters: ViewFilters }) => api<View>("/views", { body }),
    onSuccess: (view) => {
      client.invalidateQueries({ queryKey: viewsKeys.list });
      client.invalidateQueries({ queryKey: ticketKeys.counts });
      onClose();
      navigate(`/views/${view.id}`);
    },
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    create.mutate({ name: v.name ?? "", shared: v.shared === "on", filters });
  };
  return (
    <Modal title={t("inbox.saveAsView")} onClose={onClose}>
      <form className="stack" onSubmit={submit} noValidate>
        <Field label={t("inbox.viewName")} name="name" error={create.error}>
          <input name="name" placeholder={t("inbox.viewNamePlaceholder")} autoFocus />
        </Field>
        <label className="check">
          <input type="checkbox" name="shared" /> {t("inbox.sharedWithWorkspace")}
        </label>
        <div className="muted small" data-testid="view-summary">
          {describeViewFilters(filters) || t("inbox.folderAll")}
        </div>
        {dropped.length > 0 && (
          <div className="field-hint">{t("inbox.notSavedInViews", { list: dropped.join(", ") })}</div>
        )}
        <FormError error={create.error} fields={["name"]} />
        <div className="actions">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {t("inbox.saveView")}
          </button>
        </div>
      </form>
    </Modal>
  );
}
