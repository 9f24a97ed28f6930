import { describe, expect, test } from "bun:test";
import {
  addWorkingMinutes,
  canonicalTimeZone,
  instantOf,
  type Schedule,
  type WorkingHours,
} from "./business-hours.calc";

const nineToFive = [{ start: "09:00", end: "17:00" }];
const weekdays: Schedule = {
  mon: nineToFive,
  tue: nineToFive,
  wed: nineToFive,
  thu: nineToFive,
  fri: nineToFive,
  sat: [],
  sun: [],
};
const hours = (timezone: string, schedule: Schedule = weekdays, holidays: WorkingHours["holidays"] = []) => ({
  timezone,
  schedule,
  holidays,
});
const add = (from: string, minutes: number, h: WorkingHours) =>
  addWorkingMinutes(new Date(from), minutes, h)?.toISOString();

describe("working minutes", () => {
  test("inside a range, before opening, after closing", () => {
    const h = hours("UTC");
    // Tuesday 2026-01-06
    expect(add("2026-01-06T10:00:00.000Z", 30, h)).toBe("2026-01-06T10:30:00.000Z");
    expect(add("2026-01-06T07:00:00.000Z", 60, h)).toBe("2026-01-06T10:00:00.000Z");
    expect(add("2026-01-06T18:00:00.000Z", 60, h)).toBe("2026-01-07T10:00:00.000Z");
    // Exactly the rest of the day ends at closing time, not the next morning.
    expect(add("2026-01-06T16:00:00.000Z", 60, h)).toBe("2026-01-06T17:00:00.000Z");
  });

  test("across a weekend: Friday 16:00 plus two hours is Monday 10:00", () => {
    expect(add("2026-01-09T16:00:00.000Z", 120, hours("UTC"))).toBe("2026-01-12T10:00:00.000Z");
    // Started on Saturday: the clock waits for Monday's opening.
    expect(add("2026-01-10T12:00:00.000Z", 60, hours("UTC"))).toBe("2026-01-12T10:00:00.000Z");
  });

  test("a holiday is skipped; several ranges a day count in order", () => {
    const h = hours("UTC", weekdays, [{ date: "2026-01-12", name: "Closed" }]);
    expect(add("2026-01-09T16:00:00.000Z", 120, h)).toBe("2026-01-13T10:00:00.000Z");
    const split: Schedule = {
      ...weekdays,
      mon: [
        { start: "13:00", end: "17:00" },
        { start: "08:00", end: "12:00" },
      ],
    };
    expect(add("2026-01-12T07:00:00.000Z", 300, hours("UTC", split))).toBe("2026-01-12T14:00:00.000Z");
  });

  test("in a time zone: local opening hours, whatever UTC says", () => {
    // 09:00 in Paris in January is 08:00 UTC.
    expect(add("2026-01-06T06:00:00.000Z", 60, hours("Europe/Paris"))).toBe("2026-01-06T09:00:00.000Z");
    // 17:00 Friday in New York is 22:00 UTC; the next open minute is Monday 09:00 EST (14:00 UTC).
    expect(add("2026-01-09T21:30:00.000Z", 60, hours("America/New_York"))).toBe("2026-01-12T14:30:00.000Z");
  });

  test("DST: opening hours follow the wall clock across the change", () => {
    // Paris moves to summer time on Sunday 2026-03-29: 09:00 is 08:00 UTC before and 07:00 UTC after.
    expect(add("2026-03-27T15:00:00.000Z", 120, hours("Europe/Paris"))).toBe("2026-03-30T08:00:00.000Z");
    // New York goes back to standard time on Sunday 2026-11-01.
    expect(add("2026-10-30T20:30:00.000Z", 60, hours("America/New_York"))).toBe("2026-11-02T14:30:00.000Z");
  });

  test("DST: a whole-day range lasts 23 hours on the spring day and 25 on the autumn day", () => {
    const allDay = [{ start: "00:00", end: "24:00" }];
    const always: Schedule = {
      mon: allDay,
      tue: allDay,
      wed: allDay,
      thu: allDay,
      fri: allDay,
      sat: allDay,
      sun: allDay,
    };
    const paris = hours("Europe/Paris", always);
    // Sunday 2026-03-29 00:00 Paris = 2026-03-28T23:00Z; 23 open hours later is Monday 00:00 Paris (22:00Z).
    expect(add("2026-03-28T23:00:00.000Z", 23 * 60, paris)).toBe("2026-03-29T22:00:00.000Z");
    // Sunday 2026-10-25 00:00 Paris = 2026-10-24T22:00Z; the day has 25 hours.
    expect(add("2026-10-24T22:00:00.000Z", 25 * 60, paris)).toBe("2026-10-25T23:00:00.000Z");
  });

  test("a range ending at 24:00 runs to midnight; a schedule that never opens gives no deadline", () => {
    const late: Schedule = { ...weekdays, tue: [{ start: "22:00", end: "24:00" }] };
    expect(add("2026-01-06T23:00:00.000Z", 90, hours("UTC", late))).toBe("2026-01-07T09:30:00.000Z");
    const closed: Schedule = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
    expect(addWorkingMinutes(new Date("2026-01-06T00:00:00Z"), 60, hours("UTC", closed))).toBeNull();
  });

  test("local times in the gaps and overlaps of DST changes", () => {
    // 02:30 does not exist in New York on 2026-03-08: read as 03:30 EDT (07:30 UTC).
    expect(new Date(instantOf("America/New_York", 2026, 3, 8, 150)).toISOString()).toBe("2026-03-08T07:30:00.000Z");
    // 01:30 happens twice on 2026-11-01: the first (EDT, 05:30 UTC).
    expect(new Date(instantOf("America/New_York", 2026, 11, 1, 90)).toISOString()).toBe("2026-11-01T05:30:00.000Z");
  });

  test("time zone names", () => {
    expect(canonicalTimeZone("Europe/Paris")).toBe("Europe/Paris");
    expect(canonicalTimeZone("UTC")).toBe("UTC");
    expect(canonicalTimeZone("Mars/Olympus")).toBeNull();
    expect(canonicalTimeZone("+05:00")).toBeNull();
    expect(canonicalTimeZone("")).toBeNull();
  });
});
