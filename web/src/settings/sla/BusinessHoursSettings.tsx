import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { api, ApiError } from "../../lib/api/client";
import type { BusinessHours } from "../../lib/api/types";
import { type MessageKey, t } from "../../lib/i18n/i18n";
import { Field, FormError } from "../../lib/ui/form";
import { ErrorBox, Loading } from "../../lib/ui/states";
import { businessHoursKeys } from "./sla.queries";

type Day = keyof BusinessHours["schedule"];
type Range = BusinessHours["schedule"][Day][number];
const DAYS: Array<[Day, MessageKey]> = [
  ["mon", "workflow.dayMon"],
  ["tue", "workflow.dayTue"],
  ["wed", "workflow.dayWed"],
  ["thu", "workflow.dayThu"],
  ["fri", "workflow.dayFri"],
  ["sat", "workflow.daySat"],
  ["sun", "workflow.daySun"],
];
const MAX_RANGES = 3;
const MAX_HOLIDAYS = 100;
const pad = (n: number) => String(n).padStart(2, "0");
/** Every quarter hour of a day, 00:00 to 24:00. */
const QUARTERS = Array.from({ length: 97 }, (_, i) => `${pad(Math.floor(i / 4))}:${pad((i % 4) * 15)}`);
const STARTS = QUARTERS.slice(0, -1);
const ENDS = QUARTERS.slice(1);

function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const all = new Set(["UTC", ...known, current]);
  return [...all].sort((a, b) => (a === "UTC" ? -1 : b === "UTC" ? 1 : a.localeCompare(b)));
}

export default function BusinessHoursSettings() {
  const client = useQueryClient();
  const hours = useQuery({ queryKey: businessHoursKeys.current, queryFn: () => api<BusinessHours>("/business-hours") });
  const [draft, setDraft] = useState<BusinessHours | null>(null);
  useEffect(() => {
    if (hours.data && !draft) setDraft(hours.data);
  }, [hours.data, draft]);
  const save = useMutation({
    mutationFn: (body: BusinessHours) => api<BusinessHours>("/business-hours", { method: "PUT", body }),
    onSuccess: (saved) => {
      client.setQueryData(businessHoursKeys.current, saved);
      setDraft(saved);
    },
  });
  const zones = useMemo(() => timeZones(draft?.timezone ?? "UTC"), [draft?.timezone]);
  if (hours.isPending) return <Loading />;
  if (hours.isError) return <ErrorBox error={hours.error} retry={() => hours.refetch()} />;
  if (!draft) return <Loading />;

  const error = save.error;
  const at = (location: string) => (error instanceof ApiError ? error.at(location) : undefined);
  const setDay = (day: Day, ranges: Range[]) => setDraft({ ...draft, schedule: { ...draft.schedule, [day]: ranges } });
  const setRange = (day: Day, index: number, patch: Partial<Range>) =>
    setDay(
      day,
      draft.schedule[day].map((r, i) => (i === index ? { ...r, ...patch } : r)),
    );
  const setHoliday = (index: number, patch: Partial<BusinessHours["holidays"][number]>) =>
    setDraft({ ...draft, holidays: draft.holidays.map((h, i) => (i === index ? { ...h, ...patch } : h)) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(draft);
  };
  const shownFields = [
    "enabled",
    "timezone",
    ...DAYS.flatMap(([day]) => [
      `schedule.${day}`,
      ...[0, 1, 2].flatMap((i) => [`schedule.${day}.${i}.start`, `schedule.${day}.${i}.end`]),
    ]),
    "holidays",
    ...draft.holidays.flatMap((_, i) => [`holidays.${i}.date`, `holidays.${i}.name`]),
  ];

  return (
    <div className="settings-page">
      <h1>{t("workflow.businessHoursTitle")}</h1>
      <p className="muted small">{t("workflow.businessHoursIntro")}</p>
      <form className="stack card" onSubmit={submit} noValidate aria-label={t("workflow.businessHoursTitle")}>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.enabled}
            onChange={(e) => setDraft({ ...draft, enabled: e.target.checked })}
          />{" "}
          {t("workflow.useBusinessHours")}
        </label>
        <div className="narrow">
          <Field label={t("workflow.labelTimeZone")} name="timezone" error={error}>
            <select value={draft.timezone} onChange={(e) => setDraft({ ...draft, timezone: e.target.value })}>
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone.replaceAll("_", " ")}
                </option>
              ))}
            </select>
          </Field>
        </div>

        <fieldset className="bh-week">
          <legend>{t("workflow.openingHours")}</legend>
          {DAYS.map(([day, key]) => {
            const ranges = draft.schedule[day];
            const label = t(key);
            return (
              <div className="bh-day" key={day}>
                <span className="bh-day-name" id={`bh-${day}`}>
                  {label}
                </span>
                <div className="bh-ranges">
                  {ranges.length === 0 && <span className="muted small">{t("workflow.closed")}</span>}
                  {ranges.map((range, i) => {
                    const problem = at(`schedule.${day}.${i}.start`) ?? at(`schedule.${day}.${i}.end`);
                    return (
                      // biome-ignore lint/suspicious/noArrayIndexKey: ranges have no identity beyond their place
                      <div className="bh-range" key={i}>
                        <select
                          aria-label={t("workflow.rangeOpens", { day: label, number: i + 1 })}
                          value={range.start}
                          onChange={(e) => setRange(day, i, { start: e.target.value })}
                        >
                          {STARTS.map((time) => (
                            <option key={time}>{time}</option>
                          ))}
                        </select>
                        <span aria-hidden="true">–</span>
                        <select
                          aria-label={t("workflow.rangeCloses", { day: label, number: i + 1 })}
                          value={range.end}
                          onChange={(e) => setRange(day, i, { end: e.target.value })}
                        >
                          {ENDS.map((time) => (
                            <option key={time}>{time}</option>
                          ))}
                        </select>
                        <button
                          type="button"
                          className="btn btn-small btn-ghost"
                          aria-label={t("workflow.removeRange", { day: label, number: i + 1 })}
                          onClick={() =>
                            setDay(
                              day,
                              ranges.filter((_, j) => j !== i),
                            )
                          }
                        >
                          {t("workflow.remove")}
                        </button>
                        {problem && (
                          <span className="field-error" role="alert">
                            {problem}
                          </span>
                        )}
                      </div>
                    );
                  })}
                  {at(`schedule.${day}`) && (
                    <span className="field-error" role="alert">
                      {at(`schedule.${day}`)}
                    </span>
                  )}
                </div>
                <button
                  type="button"
                  className="btn btn-small"
                  aria-label={t("workflow.addHoursOn", { day: label })}
                  disabled={ranges.length >= MAX_RANGES}
                  onClick={() => {
                    const last = ranges.at(-1);
                    const start = last && last.end !== "24:00" ? last.end : "09:00";
                    const end = ENDS.find((time) => time > start && time >= "17:00") ?? "24:00";
                    setDay(day, [...ranges, { start, end }]);
                  }}
                >
                  {t("workflow.addHours")}
                </button>
              </div>
            );
          })}
        </fieldset>

        <fieldset className="bh-holidays">
          <legend>{t("workflow.holidays")}</legend>
          {draft.holidays.length === 0 && <p className="muted small">{t("workflow.noHolidays")}</p>}
          {draft.holidays.map((holiday, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a holiday being edited may share its date with another
            <div className="bh-holiday" key={i}>
              <Field label={t("workflow.labelDate")} name={`holidays.${i}.date`} error={error}>
                <input type="date" value={holiday.date} onChange={(e) => setHoliday(i, { date: e.target.value })} />
              </Field>
              <Field label={t("workflow.labelName")} name={`holidays.${i}.name`} error={error}>
                <input value={holiday.name} onChange={(e) => setHoliday(i, { name: e.target.value })} />
              </Field>
              <button
                type="button"
                className="btn btn-small btn-ghost"
                aria-label={t("workflow.removeHoliday", { name: holiday.name || String(i + 1) })}
                onClick={() => setDraft({ ...draft, holidays: draft.holidays.filter((_, j) => j !== i) })}
              >
                {t("workflow.remove")}
              </button>
            </div>
          ))}
          <button
            type="button"
            className="btn btn-small"
            disabled={draft.holidays.length >= MAX_HOLIDAYS}
            onClick={() => setDraft({ ...draft, holidays: [...draft.holidays, { date: "", name: "" }] })}
          >
            {t("workflow.addHoliday")}
          </button>
          {at("holidays") && (
            <span className="field-error" role="alert">
              {at("holidays")}
            </span>
          )}
        </fieldset>

        <FormError error={error} fields={shownFields} />
        {save.isSuccess && !save.isPending && (
          <div className="muted small" role="status">
            {t("workflow.savedSentence")}
          </div>
        )}
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {t("workflow.saveBusinessHours")}
          </button>
        </div>
      </form>
    </div>
  );
}
