/** Lowercase ASCII slug: letters and digits joined by single dashes (or `sep`). */
export function slugify(text: string, sep = "-", max = 48): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, sep)
    .replace(new RegExp(`^${sep}+|${sep}+$`, "g"), "")
    .slice(0, max)
    .replace(new RegExp(`${sep}+$`), "");
  return slug;
}
