import { z } from "zod";
import { canonicalTimeZone, minutesOf } from "./business-hours.calc";

const Clock = z
  .string()
  .regex(/^([01]\d|2[0-4]):(00|15|30|45)$/, "a time is HH:MM on the quarter hour (00:00 to 24:00)")
  .refine((value) => minutesOf(value) <= 24 * 60, "a time is at most 24:00");

const Range = z.strictObject({ start: Clock, end: Clock }).superRefine((range, issue) => {
  if (range.start === "24:00")
    issue.addIssue({ code: "custom", path: ["start"], message: "a range cannot start at 24:00" });
  else if (minutesOf(range.end) <= minutesOf(range.start))
    issue.addIssue({ code: "custom", path: ["end"], message: "a range ends after it starts" });
});

const Day = z
  .array(Range)
  .max(3, "at most 3 ranges a day")
  .superRefine((ranges, issue) => {
    const order = ranges
      .map((range, index) => ({ range, index }))
      .sort((a, b) => a.range.start.localeCompare(b.range.start));
    for (let i = 1; i < order.length; i++) {
      if (minutesOf(order[i]!.range.start) < minutesOf(order[i - 1]!.range.end))
        issue.addIssue({
          code: "custom",
          path: [order[i]!.index, "start"],
          message: "ranges of a day may not overlap",
        });
    }
  });

const DateOnly = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "a date is YYYY-MM-DD")
  .refine((value) => {
    const [y, m, d] = value.split("-").map(Number) as [number, number, number];
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }, "not a calendar date");

export const ScheduleSchema = z.strictObject({
  mon: Day,
  tue: Day,
  wed: Day,
  thu: Day,
  fri: Day,
  sat: Day,
  sun: Day,
});

export const BusinessHoursSchema = z.object({
  enabled: z.boolean(),
  timezone: z.string().describe("IANA time zone, e.g. Europe/Paris"),
  schedule: z.object({
    mon: z.array(z.object({ start: z.string(), end: z.string() })),
    tue: z.array(z.object({ start: z.string(), end: z.string() })),
    wed: z.array(z.object({ start: z.string(), end: z.string() })),
    thu: z.array(z.object({ start: z.string(), end: z.string() })),
    fri: z.array(z.object({ start: z.string(), end: z.string() })),
    sat: z.array(z.object({ start: z.string(), end: z.string() })),
    sun: z.array(z.object({ start: z.string(), end: z.string() })),
  }),
  holidays: z.array(z.object({ date: z.string(), name: z.string() })),
});

export const PutBusinessHoursBody = z.strictObject({
  enabled: z.boolean(),
  timezone: z
    .string()
    .min(1)
    .max(64)
    .refine((name) => canonicalTimeZone(name) !== null, "not an IANA time zone"),
  schedule: ScheduleSchema,
  holidays: z
    .array(z.strictObject({ date: DateOnly, name: z.string().trim().min(1).max(100) }))
    .max(100, "at most 100 holidays")
    .superRefine((holidays, issue) => {
      const seen = new Set<string>();
      holidays.forEach((holiday, index) => {
        if (seen.has(holiday.date))
          issue.addIssue({ code: "custom", path: [index, "date"], message: "each date once" });
        seen.add(holiday.date);
      });
    }),
});
export type PutBusinessHours = z.output<typeof PutBusinessHoursBody>;
