import { t } from "./i18n/i18n";

/**
 * What to call a contact or a sender: their name, else the local part of their address, else a
 * neutral word. Never blank and never "?": a list of "No contact" rows tells an agent nothing.
 */
export function personName(
  name: string | null | undefined,
  email: string | null | undefined,
  fallback = t("common.visitor"),
) {
  const trimmed = name?.trim();
  if (trimmed) return trimmed;
  const local = email?.split("@")[0]?.trim();
  return local || fallback;
}
