import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * The inbox, notifications, onboarding, audit log, reports and the shared UI pieces speak through
 * the catalogues (web/src/i18n): English reads exactly as before, German reads German; and no text
 * is left inline in the JSX of any screen of the agent app.
 */

const WEB = join(import.meta.dir, "..", "web", "src");
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });

// lib/ui/layers.ts listens on window when loaded: the modules come in after this stand-in.
(globalThis as { window?: unknown }).window ??= { addEventListener() {} };
const i18n = await import("../web/src/lib/i18n/i18n");
const { statusLabel, timeAgo } = await import("../web/src/lib/ui/bits");
const { describeViewFilters } = await import("../web/src/inbox/view-filters-text");
const { notificationText } = await import("../web/src/notifications/notification-text");
const { duration } = await import("../web/src/reports/Reports");
const { minutesText } = await import("../web/src/lib/sla-time");
const { folderTitle } = await import("../web/src/inbox/inbox-filters");

const filters = {
  status: ["open" as const, "on_hold" as const],
  priority: ["high" as const],
  assignee: "none",
  channel: "api" as const,
  q: "refund",
  fields: [
    { key: "plan", op: "any", value: "pro" },
    { key: "plan", op: "set", value: "" },
  ],
};
const assigned = { type: "assigned" as const, ticket: { number: 4, subject: "Printer" }, data: { by_name: "Ann" } };
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

describe("translated texts of the inbox, notifications, reports and shared UI", () => {
  afterAll(() => i18n.activateLocale("en"));

  describe("in English (the wording browser tests assert)", () => {
    beforeAll(() => i18n.activateLocale("en"));
    test("labels, summaries and sentences read as before", () => {
      expect(statusLabel("on_hold")).toBe("On hold");
      expect(statusLabel("some_role")).toBe("Some role");
      expect(folderTitle("all")).toBe("All tickets");
      expect(describeViewFilters(filters)).toBe(
        "status: open, on hold · priority: high · assignee: unassigned · channel: api · “refund” · plan is any of pro · plan is set",
      );
      expect(notificationText(assigned as never)).toBe("#4 Printer was assigned to you by Ann");
      expect([duration(45), duration(200), duration(3000), minutesText(1500)]).toEqual([
        "45m",
        "3h 20m",
        "2d 2h",
        "1 d 1 h",
      ]);
      expect(timeAgo(minutesAgo(5))).toBe("5m");
      expect(i18n.t("inbox.ticketCount", { count: 1 })).toBe("1 ticket");
      expect(i18n.t("inbox.ticketCountMore", { count: 50 })).toBe("50+ tickets");
    });
  });

  describe("in German", () => {
    beforeAll(() => i18n.activateLocale("de"));
    test("the same texts in German, whole sentences with their values in place", () => {
      expect(statusLabel("on_hold")).toBe("Angehalten");
      expect(folderTitle("all")).toBe("Alle Tickets");
      expect(describeViewFilters(filters)).toBe(
        "Status: offen, angehalten · Priorität: hoch · Zuständig: niemand · Kanal: API · „refund“ · plan ist eines von pro · plan ist gesetzt",
      );
      expect(notificationText(assigned as never)).toBe("#4 Printer wurde Ihnen von Ann zugewiesen");
      expect(duration(200)).toBe("3 Std. 20 Min.");
      expect(timeAgo(minutesAgo(5))).toBe("5 Min.");
      expect(i18n.t("inbox.deleteConfirm", { count: 3 })).toBe("3 Tickets löschen?");
    });
  });

  test("no English left inline in the agent app's JSX (text, aria-label, placeholder, title)", () => {
    const inline =
      /<[a-z][^>]*\s(?:aria-label|placeholder|title|alt)="[A-Za-z][^"]*"|>\s*[A-Z][a-z]+(?: [a-z]+)*[.…]?\s*</;
    // JSX text on a line of its own ("          Mark all read").
    const alone = /^\s+[A-Z][a-z]+(?: [A-Za-z]+)*[.…]?$/;
    // What stays as it is in every language: the brand, vendors' names, example addresses and event
    // names in placeholders, and TypeScript types the patterns mistake for markup.
    const kept = new RegExp(
      [
        ">Desk<",
        '<option value="\\w+">(?:Zendesk|Freshdesk|Help Scout)</option>',
        'placeholder="(?:https?://)?[\\w.@-]*(?:example\\.com|\\.zendesk\\.com|\\.freshdesk\\.com|api\\.helpscout\\.net)[^"]*"',
        'placeholder="ticket\\.created, message\\.created"',
        "=> Promise<",
        "Promise<\\{",
      ].join("|"),
    );
    const everywhere = sources(WEB).filter(
      (file) => !/\/(?:widget|i18n)\//.test(file) && !file.endsWith("api-schema.ts"),
    );
    const offenders = everywhere
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .map((line, i) => ({ file, line, at: i + 1 }))
          .filter(({ line }) => (inline.test(line) || (file.endsWith(".tsx") && alone.test(line))) && !kept.test(line)),
      )
      .map(({ file, line, at }) => `${file.slice(WEB.length + 1)}:${at}: ${line.trim()}`);
    expect(offenders).toEqual([]);
  });
});
