/**
 * Working time in a time zone: the open ranges of each weekday, minus holidays, counted on the
 * wall clock of the zone (Intl gives the offset of each instant, so DST changes are exact: a range
 * that spans a change is as long as the clock says, one hour more or less than its face value).
 */

export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export type TimeRange = { start: string; end: string };
export type Holiday = { date: string; name: string };
export type Schedule = Record<Weekday, TimeRange[]>;
export type WorkingHours = { timezone: string; schedule: Schedule; holidays: Holiday[] };

const MINUTE = 60_000;
/** How far ahead a deadline is looked for before it is called unreachable (a schedule of holidays only). */
const MAX_DAYS = 3 * 366;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timezone, formatter);
  }
  return formatter;
}

type Wall = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** The wall clock of `timezone` at an instant. */
function wallAt(timezone: string, ms: number): Wall {
  const wall: Wall = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatterOf(timezone).formatToParts(ms)) {
    if (part.type in wall) wall[part.type as keyof Wall] = Number(part.value);
  }
  return wall;
}

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(timezone: string, ms: number): number {
  const w = wallAt(timezone, ms);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant the zone's clock reads `minutes` past midnight of a local date. A time skipped by a
 * spring-forward change is moved forward by the gap (02:30 reads as 03:30); a time repeated in
 * autumn is its first occurrence.
 */
export function instantOf(timezone: string, year: number, month: number, day: number, minutes: number): number {
  const face = Date.UTC(year, month - 1, day) + minutes * MINUTE;
  const first = offsetAt(timezone, face);
  const guess = face - first;
  const second = offsetAt(timezone, guess);
  if (second === first) return guess;
  const other = face - second;
  return offsetAt(timezone, other) === second ? Math.min(guess, other) : Math.max(guess, other);
}

export const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const dateKey = (year: number, month: number, day: number): string =>
  `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;

/**
 * The instant `minutes` of open time after `from`, or null when the schedule never opens (no
 * range on any day, or holidays for the next three years).
 */
export function addWorkingMinutes(from: Date, minutes: number, hours: WorkingHours): Date | null {
  if (minutes <= 0) return from;
  if (!WEEKDAYS.some((day) => hours.schedule[day].length > 0)) return null;
  const holidays = new Set(hours.holidays.map((h) => h.date));
  const start = from.getTime();
  let remaining = minutes * MINUTE;
  const local = wallAt(hours.timezone, start);
  // Walk local dates from the one `from` falls on: Date.UTC normalises day overflow into months.
  const cursor = new Date(Date.UTC(local.year, local.month - 1, local.day));
  for (let i = 0; i < MAX_DAYS; i++) {
    const year = cursor.getUTCFullYear();
    const month = cursor.getUTCMonth() + 1;
    const day = cursor.getUTCDate();
    if (!holidays.has(dateKey(year, month, day))) {
      const ranges = [...hours.schedule[WEEKDAYS[cursor.getUTCDay()]!]].sort((a, b) => a.start.localeCompare(b.start));
      for (const range of ranges) {
        const open = Math.max(start, instantOf(hours.timezone, year, month, day, minutesOf(range.start)));
        const close = instantOf(hours.timezone, year, month, day, minutesOf(range.end));
        if (close <= open) continue;
        if (close - open >= remaining) return new Date(open + remaining);
        remaining -= close - open;
      }
    }
    cursor.setUTCDate(cursor.getUTCDate() + 1);
  }
  return null;
}

/** The IANA name Intl knows a time zone by, or null when it knows none such. */
export function canonicalTimeZone(name: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
