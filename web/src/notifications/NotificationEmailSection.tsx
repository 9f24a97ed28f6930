import { Field } from "../lib/ui/form";
import { type MessageKey, t } from "../lib/i18n/i18n";
import { errorText } from "../lib/ui/states";
import {
  type EmailPreference,
  useNotificationPreferences,
  useSetNotificationPreferences,
} from "./notifications.queries";

const CHOICES: Array<[EmailPreference, MessageKey]> = [
  ["immediately", "notifications.emailImmediately"],
  ["digest", "notifications.emailDigest"],
  ["off", "notifications.emailOff"],
];

/** The profile's notification email preference (for the current workspace). */
export function NotificationEmailSection() {
  const prefs = useNotificationPreferences();
  const set = useSetNotificationPreferences();
  return (
    <section aria-labelledby="profile-notifications">
      <h2 id="profile-notifications">{t("notifications.title")}</h2>
      <p className="muted">{t("notifications.emailIntro")}</p>
      <Field label={t("notifications.emailMe")}>
        <select
          value={set.isPending && set.variables ? set.variables : (prefs.data?.email ?? "immediately")}
          disabled={!prefs.data}
          onChange={(e) => set.mutate(e.target.value as EmailPreference)}
        >
          {CHOICES.map(([value, label]) => (
            <option key={value} value={value}>
              {t(label)}
            </option>
          ))}
        </select>
      </Field>
      {set.isSuccess && <p className="muted small">{t("notifications.saved")}</p>}
      {(prefs.isError || set.isError) && <div className="form-error">{errorText(prefs.error ?? set.error)}</div>}
    </section>
  );
}
