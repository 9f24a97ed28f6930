import { useMutation } from "@tanstack/react-query";
import { api } from "../lib/api/client";
import { ErrorBox } from "../lib/ui/states";
import { t } from "../lib/i18n/i18n";

/**
 * "Look up again" for a record's automatic picture (Gravatar for contacts, the website's icon for
 * companies): the server looks in the background and the picture appears through the record's
 * update event. Hidden when the picture was uploaded, which nothing automatic replaces.
 */
export function LookUpAgain({ path, source, hint }: { path: string; source: string | null; hint: string }) {
  const refresh = useMutation({ mutationFn: () => api(path, { method: "POST" }) });
  if (source === "upload") return null;
  return (
    <div className="stack">
      <div className="actions">
        <button type="button" className="btn btn-small" onClick={() => refresh.mutate()} disabled={refresh.isPending}>
          {t("contacts.lookUpAgain")}
        </button>
      </div>
      {refresh.isSuccess && (
        <p role="status" className="muted small">
          {t("contacts.lookingItUp", { hint })}
        </p>
      )}
      <ErrorBox error={refresh.error} />
    </div>
  );
}
