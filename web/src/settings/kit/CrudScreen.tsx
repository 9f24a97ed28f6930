import type { UseMutationResult, UseQueryResult } from "@tanstack/react-query";
import type { FormEvent, ReactNode } from "react";
import { t } from "../../lib/i18n/i18n";
import { Modal } from "../../lib/ui/bits";
import { FormError } from "../../lib/ui/form";
import { ErrorBox, errorText, Loading } from "../../lib/ui/states";

/**
 * The pieces every settings collection screen repeats (list with its loading, error and empty
 * states; the create form; the edit dialog; the failed-change line; the delete with a question),
 * kept in one place so the screens share their markup, labels and roles.
 */

// Each screen's mutations have their own variables and answers; the kit reads only their state.
type AnyMutation = Pick<UseMutationResult<unknown, Error, never>, "isPending" | "isError" | "error">;

/** The list, or what stands in for it while it loads, failed or holds nothing yet. */
export function CrudList<T>({
  query,
  select = (all) => all,
  empty,
  children,
}: {
  query: UseQueryResult<T[]>;
  /** The rows this screen shows (one entity's fields, say): the empty state follows them. */
  select?: (all: T[]) => T[];
  empty: ReactNode;
  children: (rows: T[]) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorBox error={query.error} retry={() => query.refetch()} />;
  const rows = select(query.data);
  if (rows.length === 0) return <>{empty}</>;
  return <>{children(rows)}</>;
}

/** The card that adds one: its fields, the errors no field shows, and the one submit button. */
export function CreateForm({
  mutation,
  fields,
  submitLabel,
  onSubmit,
  label,
  children,
}: {
  mutation: AnyMutation;
  /** Body fields shown beside their inputs; FormError lists the other errors. */
  fields: string[];
  submitLabel: string;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  /** The form's accessible name, when the page has more than one form. */
  label?: string;
  children: ReactNode;
}) {
  return (
    <form className="stack narrow card" onSubmit={onSubmit} noValidate aria-label={label}>
      {children}
      <FormError error={mutation.error} fields={fields} />
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

/** A dialog editing one row: its fields, the errors no field shows, Save and Cancel. */
export function EditDialog({
  title,
  mutation,
  fields,
  onSubmit,
  onClose,
  children,
}: {
  title: string;
  mutation: AnyMutation;
  fields: string[];
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal title={title} onClose={onClose}>
      <form className="stack" onSubmit={onSubmit} noValidate>
        {children}
        <FormError error={mutation.error} fields={fields} />
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
            {t("common.save")}
          </button>
          <button type="button" className="btn" onClick={onClose}>
            {t("common.cancel")}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The first failure among the list's changes (update, delete, reorder…), under the list. */
export function ChangeError({ mutations, alert }: { mutations: AnyMutation[]; alert?: boolean }) {
  const failed = mutations.find((m) => m.isError);
  if (!failed) return null;
  return (
    <div className="form-error" role={alert ? "alert" : undefined}>
      {errorText(failed.error)}
    </div>
  );
}

/** A delete button that asks first when the loss needs a word of warning. */
export function DeleteButton({
  question,
  onDelete,
  className = "btn btn-small btn-danger",
  children = t("common.delete"),
}: {
  /** Asked with the browser's confirm; without one the button deletes at once. */
  question?: string;
  onDelete: () => void;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <button
      type="button"
      className={className}
      onClick={() => {
        if (!question || confirm(question)) onDelete();
      }}
    >
      {children}
    </button>
  );
}
