import { t } from "./i18n/i18n";

/** Minutes as people say them: "45 min", "2 h", "1 d 4 h". */
export function minutesText(total: number): string {
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  const minutes = total % 60;
  const parts = [
    days ? t("common.spanDays", { count: days }) : "",
    hours ? t("common.spanHours", { count: hours }) : "",
    minutes ? t("common.spanMinutes", { count: minutes }) : "",
  ].filter(Boolean);
  return parts.length ? parts.join(" ") : t("common.spanMinutes", { count: 0 });
}
