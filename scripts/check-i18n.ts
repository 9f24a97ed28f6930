/**
 * `bun run check:i18n`: every shipped catalogue (src/i18n/catalogues/<locale>.json) has every key
 * English has, no key English lacks, messages that parse as ICU, and the same placeholders (name and
 * kind: plain, number, date, plural, select) as English: a translation that drops `{count}` or turns
 * a plural into text would show customers a wrong or broken sentence.
 * It checks the server's catalogues (src/i18n/catalogues/<locale>.json) and the agent app's
 * (web/src/i18n/<locale>/<namespace>.json, a file per namespace).
 * `bun scripts/check-i18n.ts <dir>` checks another folder of catalogues (the test's fixture).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { IntlMessageFormat } from "intl-messageformat";
import { SHIPPED_LOCALES } from "../src/i18n/locales";

const dirs = process.argv[2]
  ? [resolve(process.argv[2])]
  : [join(import.meta.dir, "..", "src", "i18n", "catalogues"), join(import.meta.dir, "..", "web", "src", "i18n")];

type Catalogue = Record<string, Record<string, string>>;
type Element = { type: number; value?: unknown; options?: Record<string, { value: Element[] }>; children?: Element[] };

// intl-messageformat's element types: 1 argument, 2 number, 3 date, 4 time, 5 select, 6 plural, 8 tag.
const KINDS: Record<number, string> = { 1: "text", 2: "number", 3: "date", 4: "time", 5: "select", 6: "plural" };

function placeholders(elements: Element[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    const kind = KINDS[element.type];
    if (kind && typeof element.value === "string") into.add(`{${element.value}: ${kind}}`);
    for (const option of Object.values(element.options ?? {})) placeholders(option.value, into);
    if (element.children) placeholders(element.children, into);
  }
  return into;
}

function flatten(catalogue: Catalogue): Map<string, string> {
  const out = new Map<string, string>();
  for (const [namespace, messages] of Object.entries(catalogue))
    for (const [name, text] of Object.entries(messages)) out.set(`${namespace}.${name}`, text);
  return out;
}

const problems: string[] = [];
/** A locale's catalogue: one file `<locale>.json`, or a folder `<locale>/` holding a file per namespace. */
const load = (dir: string, locale: string): Map<string, string> | null => {
  const file = join(dir, `${locale}.json`);
  const folder = join(dir, locale);
  const read = <T>(path: string): T | null => {
    try {
      return JSON.parse(readFileSync(path, "utf8")) as T;
    } catch (error) {
      problems.push(`${locale}: ${path} is not valid JSON (${(error as Error).message})`);
      return null;
    }
  };
  if (existsSync(folder) && statSync(folder).isDirectory()) {
    const catalogue: Catalogue = {};
    for (const name of readdirSync(folder)
      .filter((n) => n.endsWith(".json"))
      .sort()) {
      const namespace = read<Record<string, string>>(join(folder, name));
      if (namespace) catalogue[name.slice(0, -".json".length)] = namespace;
    }
    return flatten(catalogue);
  }
  if (!existsSync(file)) {
    problems.push(`${locale}: no catalogue at ${file}`);
    return null;
  }
  const catalogue = read<Catalogue>(file);
  return catalogue ? flatten(catalogue) : null;
};
const parse = (locale: string, key: string, text: string): Set<string> | null => {
  try {
    return placeholders(new IntlMessageFormat(text, locale).getAst() as Element[]);
  } catch (error) {
    problems.push(`${locale}: ${key} is not a valid ICU message (${(error as Error).message})`);
    return null;
  }
};

for (const dir of dirs) {
  const english = load(dir, "en");
  if (english) {
    const expected = new Map([...english].map(([key, text]) => [key, parse("en", key, text)]));
    for (const locale of SHIPPED_LOCALES.filter((l) => l !== "en")) {
      const catalogue = load(dir, locale);
      if (!catalogue) continue;
      for (const [key, wanted] of expected) {
        const text = catalogue.get(key);
        if (text === undefined) {
          problems.push(`${locale}: missing ${key}`);
          continue;
        }
        const got = parse(locale, key, text);
        if (!got || !wanted) continue;
        const a = [...wanted].sort().join(", ");
        const b = [...got].sort().join(", ");
        if (a !== b) problems.push(`${locale}: ${key} has placeholders ${b || "(none)"}, English has ${a || "(none)"}`);
      }
      for (const key of catalogue.keys()) if (!english.has(key)) problems.push(`${locale}: ${key} is not in English`);
    }
  }
}

if (problems.length > 0) {
  console.log(problems.join("\n"));
  console.log(`\ncheck:i18n: ${problems.length} problem(s) in the catalogues of ${dirs.join(" and ")}`);
  process.exit(1);
}
console.log(`check:i18n: ${SHIPPED_LOCALES.length} catalogues complete, placeholders match English.`);
