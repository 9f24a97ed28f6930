import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { api } from "../lib/api/client";
import { useWorkspace } from "../lib/resources/workspace";
import { canAdmin, useRole } from "../lib/api/session";
import type { Workspace } from "../lib/api/types";
import { Field, FormError, formValues } from "../lib/ui/form";
import { ErrorBox, Loading } from "../lib/ui/states";

export default function WorkspaceSettings() {
  const workspace = useWorkspace();
  const role = useRole();
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<Workspace>("/workspace", { method: "PATCH", body }),
    onSuccess: (w) => {
      client.setQueryData(["workspace"], w);
      client.invalidateQueries({ queryKey: ["me"] });
    },
  });
  if (workspace.isPending) return <Loading />;
  if (workspace.isError) return <ErrorBox error={workspace.error} retry={() => workspace.refetch()} />;
  const w = workspace.data;
  const settings = w.settings ?? {};
  const admin = canAdmin(role);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    save.mutate({
      name: v.name,
      settings: {
        timezone: v.timezone || undefined,
        brand_color: v.brand_color || undefined,
        label_creation: v.label_creation || undefined,
      },
    });
  };
  return (
    <div className="settings-page">
      <h1>Workspace</h1>
      <form className="stack narrow" onSubmit={submit} noValidate>
        <Field label="Name" name="name" error={save.error}>
          <input name="name" defaultValue={w.name} disabled={!admin} />
        </Field>
        <Field label="Address" hint="Used in links and the help center.">
          <input value={w.slug} readOnly disabled />
        </Field>
        <Field label="Time zone" name="settings.timezone" error={save.error}>
          <input
            name="timezone"
            defaultValue={String(settings.timezone ?? "")}
            placeholder="Europe/Berlin"
            disabled={!admin}
          />
        </Field>
        <Field label="Brand color" name="settings.brand_color" error={save.error}>
          <input
            name="brand_color"
            defaultValue={String(settings.brand_color ?? "")}
            placeholder="#4f46e5"
            disabled={!admin}
          />
        </Field>
        <Field label="Who may create labels while labelling" name="settings.label_creation" error={save.error}>
          <select name="label_creation" defaultValue={String(settings.label_creation ?? "")} disabled={!admin}>
            <option value="">Everyone who can edit the record</option>
            <option value="admins">Admins only</option>
          </select>
        </Field>
        <FormError
          error={save.error}
          fields={["name", "settings.timezone", "settings.brand_color", "settings.label_creation"]}
        />
        {admin && (
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={save.isPending}>
              {save.isSuccess && !save.isPending ? "Saved" : "Save"}
            </button>
          </div>
        )}
      </form>
    </div>
  );
}
