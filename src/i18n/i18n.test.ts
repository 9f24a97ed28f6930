import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { catalogueOf, formatDate, formatNumber, formatRelative, messagesOf, t } from "./i18n";
import { acceptedLanguages, matchLocale, negotiateLocale, SHIPPED_LOCALES } from "./locales";

describe("negotiation", () => {
  test("BCP 47 tags match case-insensitively, a language picks its regional variant, a region falls back", () => {
    expect(matchLocale("DE")).toBe("de");
    expect(matchLocale("de-AT")).toBe("de");
    expect(matchLocale("pt")).toBe("pt-BR");
    expect(matchLocale("pt-br")).toBe("pt-BR");
    expect(matchLocale("pt-PT")).toBe("pt-BR");
    expect(matchLocale("fr-CA")).toBe("fr");
    expect(matchLocale("ja")).toBeNull();
    expect(matchLocale("<script>")).toBeNull();
    expect(matchLocale("de", ["en", "fr"])).toBeNull();
  });

  test("Accept-Language in order of weight, among the offered locales, else the fallback", () => {
    expect(acceptedLanguages("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")).toEqual(["fr-CH", "fr", "en", "de"]);
    expect(acceptedLanguages("en;q=0.2, nl")).toEqual(["nl", "en"]);
    expect(acceptedLanguages("de;q=0")).toEqual([]);
    expect(negotiateLocale(acceptedLanguages("ja, nl;q=0.5, de;q=0.4"), ["en", "de"], "en")).toBe("de");
    expect(negotiateLocale(acceptedLanguages("ja"), ["en", "de"], "de")).toBe("de");
    expect(acceptedLanguages(`${"xx, ".repeat(10_000)}de`)).toHaveLength(20);
  });
});

describe("messages", () => {
  test("ICU plurals and placeholders in each language", () => {
    expect(t("en", "help.article_count", { count: 1 })).toBe("1 article");
    expect(t("en", "help.article_count", { count: 3 })).toBe("3 articles");
    expect(t("de", "widget.open_chat_unread", { count: 2 })).toBe("Chat öffnen, 2 ungelesene Nachrichten");
    expect(t("fr", "widget.open_chat_unread", { count: 1 })).toBe("Ouvrir le chat, 1 message non lu");
    expect(t("nl", "help.article_count", { count: 2 })).toBe("2 artikelen");
    expect(t("de", "csat.comment_too_long", { max: 2000 })).toBe(
      "Der Kommentar darf höchstens 2.000 Zeichen lang sein.",
    );
    // Values are text: markup in them is left for the caller's escaping, never interpreted.
    expect(t("en", "help.go_to", { center: "<b>Acme</b>" })).toBe("Go to <b>Acme</b>");
  });

  test("a key a catalogue lacks falls back to English", () => {
    const german = catalogueOf("de");
    const saved = german.help!.popular!;
    delete german.help!.popular;
    try {
      expect(t("de", "help.popular")).toBe("Popular articles");
      expect(messagesOf("de", "help").popular).toBe("Popular articles");
    } finally {
      german.help!.popular = saved;
    }
    expect(t("de", "help.popular")).toBe("Beliebte Artikel");
  });

  test("dates, numbers and relative times through Intl", () => {
    const at = new Date("2026-03-05T14:30:00Z");
    expect(formatDate("de", at)).toBe("5. März 2026");
    expect(formatDate("en", at)).toBe("March 5, 2026");
    expect(formatDate("fr", "2026-03-05T14:30:00Z", { time: true, timeZone: "Europe/Paris" })).toBe(
      "5 mars 2026 à 15:30",
    );
    expect(formatNumber("de", 1234.5)).toBe("1.234,5");
    expect(formatNumber("pt-BR", 1234.5)).toBe("1.234,5");
    expect(formatRelative("de", new Date("2026-03-03T14:30:00Z"), at)).toBe("vorgestern");
    expect(formatRelative("en", new Date("2026-03-05T17:30:00Z"), at)).toBe("in 3 hours");
  });
});

describe("check:i18n", () => {
  const script = join(import.meta.dir, "..", "..", "scripts", "check-i18n.ts");
  const run = (dir?: string) => {
    const out = Bun.spawnSync(["bun", script, ...(dir ? [dir] : [])], { stdout: "pipe", stderr: "pipe" });
    return { code: out.exitCode, text: out.stdout.toString() + out.stderr.toString() };
  };
  const fixture = (change: (locale: string, catalogue: Record<string, Record<string, string>>) => void) => {
    const dir = mkdtempSync(join(tmpdir(), "desk-i18n-"));
    for (const locale of SHIPPED_LOCALES) {
      const catalogue = JSON.parse(readFileSync(join(import.meta.dir, "catalogues", `${locale}.json`), "utf8"));
      change(locale, catalogue);
      writeFileSync(join(dir, `${locale}.json`), JSON.stringify(catalogue));
    }
    return dir;
  };

  test("the shipped catalogues pass", () => {
    expect(run().code).toBe(0);
  });

  test("fails on a missing key, a changed placeholder, a broken message and a stray key", () => {
    const dir = fixture((locale, c) => {
      if (locale === "nl") delete c.widget!.send;
      if (locale === "fr") c.help!.article_count = "{n, plural, one {# article} other {# articles}}";
      if (locale === "es") c.csat!.thanks = "¡Gracias! {score";
      if (locale === "de") c.help!.extra = "Extra";
      if (locale === "pt-BR") c.csat!.comment_too_long = "No máximo {max} caracteres.";
    });
    const { code, text } = run(dir);
    expect(code).toBe(1);
    expect(text).toContain("nl: missing widget.send");
    expect(text).toContain("fr: help.article_count has placeholders {n: plural}, English has {count: plural}");
    expect(text).toContain("es: csat.thanks is not a valid ICU message");
    expect(text).toContain("de: help.extra is not in English");
    expect(text).toContain("pt-BR: csat.comment_too_long has placeholders {max: text}, English has {max: number}");
  });
});
