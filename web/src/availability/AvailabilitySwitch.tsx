import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { api } from "../lib/api/client";
import { useAuth } from "../lib/api/session";
import type { Availability, Member } from "../lib/api/types";
import { membersKeys, useMembers } from "../lib/resources/members";
import { type MessageKey, t } from "../lib/i18n/i18n";

const HEARTBEAT_MS = 60_000;
// Message keys, looked up while rendering so the labels follow the active language.
const LABELS: Record<Availability, MessageKey> = {
  online: "app.availabilityOnline",
  away: "app.availabilityAway",
  offline: "app.availabilityOffline",
};

/**
 * Tells the server the agent is here (POST /v1/me/heartbeat) once a minute while the tab is
 * visible, and at once when it becomes visible again: auto-away reads these.
 */
export function useHeartbeat(): void {
  const auth = useAuth();
  useEffect(() => {
    if (!auth.accessToken || !auth.workspaceId) return;
    const beat = () => {
      if (document.visibilityState === "visible") api("/me/heartbeat", { method: "POST" }).catch(() => {});
    };
    beat();
    const timer = setInterval(beat, HEARTBEAT_MS);
    document.addEventListener("visibilitychange", beat);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", beat);
    };
  }, [auth.accessToken, auth.workspaceId]);
}

/** The header's online / away / offline switch: the agent's own availability (auto-assignment reads it). */
export function AvailabilitySwitch() {
  const auth = useAuth();
  const members = useMembers();
  const client = useQueryClient();
  const me = members.data?.find((m) => m.user.id === auth.user?.id);
  const set = useMutation({
    mutationFn: (availability: Availability) =>
      api<Member>("/members/me/availability", { method: "PATCH", body: { availability } }),
    onSuccess: () => client.invalidateQueries({ queryKey: membersKeys.list }),
  });
  if (!me) return null;
  const shown = set.isPending && set.variables ? set.variables : me.availability;
  return (
    <select
      className={`availability availability-${me.presence}`}
      aria-label={t("app.yourAvailability")}
      title={me.presence !== me.availability ? t("app.shownAsPresence", { presence: me.presence }) : undefined}
      value={shown}
      onChange={(e) => set.mutate(e.target.value as Availability)}
      data-testid="availability"
    >
      {(Object.keys(LABELS) as Availability[]).map((a) => (
        <option key={a} value={a}>
          {t(LABELS[a])}
        </option>
      ))}
    </select>
  );
}
