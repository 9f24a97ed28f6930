import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { api, ApiError } from "../../lib/api/client";
import type { BusinessHours } from "../../lib/api/types";
import { Field, FormError } from "../../lib/ui/form";
import { ErrorBox, Loading } from "../../lib/ui/states";
import { businessHoursKeys } from "./sla.queries";

type Day = keyof BusinessHours["schedule"];
type Range = BusinessHours["schedule"][Day][number];
const DAYS: Array<[Day, string]> = [
  ["mon", "Monday"],
  ["tue", "Tuesday"],
  ["wed", "Wednesday"],
  ["thu", "Thursday"],
  ["fri", "Friday"],
  ["sat", "Saturday"],
  ["sun", "Sunday"],
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
      <h1>Business hours</h1>
      <p className="muted small">
        SLA policies that count business hours only run their clocks while you are open. Times are local to the time
        zone, daylight saving included.
      </p>
      <form className="stack card" onSubmit={submit} noValidate aria-label="Business hours">
        <label className="check">
          <input
            type="checkbox"
            checked={draft.enabled}
            onChange={(e) => setDraft({ ...draft, enabled: e.target.checked })}
          />{" "}
          Use business hours for SLA policies that count them
        </label>
        <div className="narrow">
          <Field label="Time zone" name="timezone" error={error}>
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
          <legend>Opening hours</legend>
          {DAYS.map(([day, label]) => {
            const ranges = draft.schedule[day];
            return (
              <div className="bh-day" key={day}>
                <span className="bh-day-name" id={`bh-${day}`}>
                  {label}
                </span>
                <div className="bh-ranges">
                  {ranges.length === 0 && <span className="muted small">Closed</span>}
                  {ranges.map((range, i) => {
                    const problem = at(`schedule.${day}.${i}.start`) ?? at(`schedule.${day}.${i}.end`);
                    return (
                      // biome-ignore lint/suspicious/noArrayIndexKey: ranges have no identity beyond their place
                      <div className="bh-range" key={i}>
                        <select
                          aria-label={`${label} range ${i + 1} opens`}
                          value={range.start}
                          onChange={(e) => setRange(day, i, { start: e.target.value })}
                        >
                          {STARTS.map((t) => (
                            <option key={t}>{t}</option>
                          ))}
                        </select>
                        <span aria-hidden="true">–</span>
                        <select
                          aria-label={`${label} range ${i + 1} closes`}
                          value={range.end}
                          onChange={(e) => setRange(day, i, { end: e.target.value })}
                        >
                          {ENDS.map((t) => (
                            <option key={t}>{t}</option>
                          ))}
                        </select>
                        <button
                          type="button"
                          className="btn btn-small btn-ghost"
                          aria-label={`Remove ${label} range ${i + 1}`}
                          onClick={() =>
                            setDay(
                              day,
                              ranges.filter((_, j) => j !== i),
                            )
                          }
                        >
                          Remove
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
                  aria-label={`Add hours on ${label}`}
                  disabled={ranges.length >= MAX_RANGES}
                  onClick={() => {
                    const last = ranges.at(-1);
                    const start = last && last.end !== "24:00" ? last.end : "09:00";
                    const end = ENDS.find((t) => t > start && t >= "17:00") ?? "24:00";
                    setDay(day, [...ranges, { start, end }]);
                  }}
                >
                  Add hours
                </button>
              </div>
            );
          })}
        </fieldset>

        <fieldset className="bh-holidays">
          <legend>Holidays</legend>
          {draft.holidays.length === 0 && <p className="muted small">No holidays: open every scheduled day.</p>}
          {draft.holidays.map((holiday, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a holiday being edited may share its date with another
            <div className="bh-holiday" key={i}>
              <Field label="Date" name={`holidays.${i}.date`} error={error}>
                <input type="date" value={holiday.date} onChange={(e) => setHoliday(i, { date: e.target.value })} />
              </Field>
              <Field label="Name" name={`holidays.${i}.name`} error={error}>
                <input value={holiday.name} onChange={(e) => setHoliday(i, { name: e.target.value })} />
              </Field>
              <button
                type="button"
                className="btn btn-small btn-ghost"
                aria-label={`Remove holiday ${holiday.name || i + 1}`}
                onClick={() => setDraft({ ...draft, holidays: draft.holidays.filter((_, j) => j !== i) })}
              >
                Remove
              </button>
            </div>
          ))}
          <button
            type="button"
            className="btn btn-small"
            disabled={draft.holidays.length >= MAX_HOLIDAYS}
            onClick={() => setDraft({ ...draft, holidays: [...draft.holidays, { date: "", name: "" }] })}
          >
            Add holiday
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
            Saved.
          </div>
        )}
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            Save business hours
          </button>
        </div>
      </form>
    </div>
  );
}
