import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { personName } from "../web/src/lib/people";
import { relativeTime } from "../web/src/lib/i18n/i18n";

const WEB = join(import.meta.dir, "..", "web", "src");
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) && !name.endsWith("api-schema.ts") ? [full] : [];
  });

describe("the web app's wording", () => {
  test("relative times are whole phrases: never 'now ago', future times say 'in'", () => {
    const now = Date.parse("2026-11-28T12:00:00Z");
    const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();
    expect(relativeTime(at(-10), now)).toBe("now");
    expect(relativeTime(at(-5 * 60), now)).toBe("5 minutes ago");
    expect(relativeTime(at(-3600), now)).toBe("1 hour ago");
    expect(relativeTime(at(-26 * 3600), now)).toBe("yesterday");
    expect(relativeTime(at(7 * 24 * 3600), now)).toBe("next week");
    expect(relativeTime(at(6 * 24 * 3600 + 3600), now)).toBe("in 6 days");
    expect(relativeTime(at(-400 * 24 * 3600), now)).toBe("last year");
  });

  test("no screen adds 'ago' to a short time itself ('updated now ago')", () => {
    const offenders = sources(WEB).filter((file) => /timeAgo\([^)]*\)\}?`?\s*ago/.test(readFileSync(file, "utf8")));
    expect(offenders.map((f) => f.slice(WEB.length + 1))).toEqual([]);
  });

  test("people without a display name are called by their address's local part, never '?' or blank", () => {
    expect(personName("Ada Lovelace", "ada@example.test")).toBe("Ada Lovelace");
    expect(personName("  ", "nina.noname@customer.test")).toBe("nina.noname");
    expect(personName("", null)).toBe("Visitor");
    expect(personName(null, undefined, "Chat visitor")).toBe("Chat visitor");
  });
});

describe("markers", () => {
  test("file and priority markers are drawn, not emoji or block glyphs that fonts and screen readers vary on", () => {
    const glyphs = /[\u{1F4CE}\u{1F4C4}\u2581\u2583\u2585\u2587]/u;
    const offenders = ["lib/ui/bits.tsx", "tickets/Timeline.tsx", "tickets/Composer.tsx"].filter((file) =>
      glyphs.test(readFileSync(join(WEB, file), "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
