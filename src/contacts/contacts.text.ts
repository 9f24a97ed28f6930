import { invalidAt } from "../lib/errors";

const EMAIL_RE = /^[^\s@<>()",;:\\]+@[^\s@<>()",;:\\]+\.[^\s@<>()",;:\\]+$/;

/** Whether a contact may have this address (what normalizeEmail accepts). */
export const isContactEmail = (raw: string): boolean => {
  const email = raw.trim();
  return email.length <= 254 && EMAIL_RE.test(email.toLowerCase());
};

/** Trims and lowercases an email address; 422 at `location` when it is not one. */
export function normalizeEmail(raw: string, location: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !EMAIL_RE.test(email)) throw invalidAt(location, "not an email address");
  return email;
}

/** A LIKE pattern matching values starting with `text` (wildcards in the text match themselves). */
export const likePrefix = (text: string): string => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
