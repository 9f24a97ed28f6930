import { Field } from "../lib/ui/form";
import { errorText } from "../lib/ui/states";
import {
  type EmailPreference,
  useNotificationPreferences,
  useSetNotificationPreferences,
} from "./notifications.queries";

const CHOICES: Array<[EmailPreference, string]> = [
  ["immediately", "Immediately, one email each"],
  ["digest", "A daily digest (08:00 UTC)"],
  ["off", "Off"],
];

/** The profile's notification email preference (for the current workspace). */
export function NotificationEmailSection() {
  const prefs = useNotificationPreferences();
  const set = useSetNotificationPreferences();
  return (
    <section aria-labelledby="profile-notifications">
      <h2 id="profile-notifications">Notifications</h2>
      <p className="muted">
        Emails when a ticket is assigned to you, you are mentioned in a note, or a customer replies on your ticket.
      </p>
      <Field label="Email me">
        <select
          value={set.isPending && set.variables ? set.variables : (prefs.data?.email ?? "immediately")}
          disabled={!prefs.data}
          onChange={(e) => set.mutate(e.target.value as EmailPreference)}
        >
          {CHOICES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      {set.isSuccess && <p className="muted small">Saved.</p>}
      {(prefs.isError || set.isError) && <div className="form-error">{errorText(prefs.error ?? set.error)}</div>}
    </section>
  );
}
