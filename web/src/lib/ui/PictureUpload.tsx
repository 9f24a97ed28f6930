import { useMutation } from "@tanstack/react-query";
import { api } from "../api/client";
import { Field, FormError } from "./form";
import { t } from "../i18n/i18n";

const ACCEPT = "image/png,image/jpeg,image/gif,image/webp";

/**
 * Show, upload and remove one picture through a `PUT`/`DELETE` picture route (multipart field `file`).
 * The chosen file is sent as is: the server checks, crops and resizes it, and its refusal reason is
 * shown beside the input. `onSaved` gets the updated object the route answers.
 */
export function PictureUpload<T>(props: {
  /** The API path, e.g. `/contacts/ct_1/avatar`. */
  path: string;
  /** Whether the route is workspace scoped (sends the workspace header). */
  workspace?: boolean;
  url: string | null | undefined;
  /** Alt text of the shown picture. */
  alt: string;
  /** The file input's label; distinct per control when a page has several. */
  label: string;
  removeLabel: string;
  empty: string;
  size?: number;
  round?: boolean;
  disabled?: boolean;
  onSaved: (answer: T) => void;
}) {
  const change = useMutation({
    mutationFn: (file: File | null) => {
      if (!file) return api<T>(props.path, { method: "DELETE", workspace: props.workspace });
      const form = new FormData();
      form.append("file", file);
      return api<T>(props.path, { method: "PUT", form, workspace: props.workspace });
    },
    onSuccess: props.onSaved,
  });
  const size = props.size ?? 96;
  return (
    <div className="stack narrow">
      {props.url ? (
        <img
          src={props.url}
          alt={props.alt}
          width={size}
          height={size}
          style={{ borderRadius: props.round === false ? 6 : "50%", objectFit: "contain" }}
        />
      ) : (
        <p className="muted">{props.empty}</p>
      )}
      {!props.disabled && (
        <>
          <Field label={props.label} name="file" hint={t("common.pictureHint")} error={change.error}>
            <input
              name="file"
              type="file"
              accept={ACCEPT}
              disabled={change.isPending}
              onChange={(e) => {
                const file = e.currentTarget.files?.[0];
                if (file) change.mutate(file);
                e.currentTarget.value = "";
              }}
            />
          </Field>
          <FormError error={change.error} fields={["file"]} />
          {props.url && (
            <div className="actions">
              <button type="button" className="btn" disabled={change.isPending} onClick={() => change.mutate(null)}>
                {props.removeLabel}
              </button>
            </div>
          )}
        </>
      )}
    </div>
  );
}
