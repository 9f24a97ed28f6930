/** Label naming and colour rules shared by the label routes and record writes. */
export const LABEL_COLORS = [
  "gray",
  "red",
  "orange",
  "amber",
  "yellow",
  "lime",
  "green",
  "teal",
  "cyan",
  "blue",
  "indigo",
  "violet",
  "purple",
  "pink",
  "rose",
] as const;
export type LabelColor = (typeof LABEL_COLORS)[number];

export const MAX_LABELS_PER_WORKSPACE = 1000;
export const MAX_LABELS_PER_RECORD = 50;
export const MAX_GROUPS_PER_WORKSPACE = 50;

const NAME_RE = /^[\p{L}\p{M}\p{N} _\-./:&+#]{1,50}$/u;

/** Names are trimmed and inner runs of spaces collapse, so "VIP  customer" and "VIP customer" are one label. */
export const normalizeLabelName = (name: string): string => name.trim().replace(/ {2,}/g, " ");

export const labelNameKey = (name: string): string => normalizeLabelName(name).toLocaleLowerCase("en-US");

/** Why a (normalized) name is not a valid label name, or null when it is. */
export function labelNameProblem(name: string): string | null {
  if (name.length === 0) return "a label name needs 1 to 50 characters";
  if ([...name].length > 50) return "a label name has at most 50 characters";
  if (!NAME_RE.test(name)) return "a label name may hold letters, digits, spaces and - _ . / : & + #";
  return null;
}

/** The palette colour of a name: the same name (in any case) always gets the same colour. */
export function colorForName(name: string): LabelColor {
  let hash = 2166136261;
  for (const char of labelNameKey(name)) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 16777619) >>> 0;
  }
  return LABEL_COLORS[hash % LABEL_COLORS.length]!;
}
