import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { api } from "../lib/api/client";
import { sessionKeys } from "../lib/api/session";
import type { Me } from "../lib/api/types";
import { t } from "../lib/i18n/i18n";
import { LanguageOptions } from "../lib/i18n/LanguageOptions";
import { Field, FormError, formValues } from "../lib/ui/form";

/**
 * Profile › Language: the member's own language for the app (PATCH /v1/me { locale }), or the
 * browser's. The answer replaces the cached GET /v1/me, so the app switches at once.
 */
export function LanguageSection({ userId, locale }: { userId: string; locale: string | null }) {
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (value: string | null) =>
      api<Me>("/me", { method: "PATCH", body: { locale: value }, workspace: false }),
    onSuccess: (me) => {
      client.setQueryData(sessionKeys.meOf(userId), me);
      client.invalidateQueries({ queryKey: sessionKeys.me });
    },
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    save.mutate(formValues(e.currentTarget).locale || null);
  };
  return (
    <section aria-labelledby="profile-language">
      <h2 id="profile-language">{t("app.language")}</h2>
      <form className="stack narrow" onSubmit={submit} noValidate>
        <Field label={t("app.languageOfTheApp")} name="locale" error={save.error} hint={t("app.languageHint")}>
          <select name="locale" defaultValue={locale ?? ""}>
            <LanguageOptions none={t("app.browserDefault")} current={locale} />
          </select>
        </Field>
        <FormError error={save.error} fields={["locale"]} />
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {t("app.saveLanguage")}
          </button>
        </div>
      </form>
    </section>
  );
}
